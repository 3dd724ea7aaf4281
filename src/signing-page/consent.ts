// The consent a signer gives by signing: shown on the signing page above the sign button, returned
// in the signing form, and quoted in the audit trail (security-notes "Audit trail minimum"). One
// wording, one place: what the trail says was shown is what the page shows.
export const CONSENT_TEXT =
  'By signing, I agree to sign this document electronically and that my electronic signature ' +
  'is a simple electronic signature under Regulation (EU) No 910/2014 (eIDAS), with the same ' +
  'intent as my handwritten signature.'
