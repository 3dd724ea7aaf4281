// The consent a signer gives by signing: shown on the signing page above the sign button, returned
// in the signing form, and quoted in the audit trail (security-notes "Audit trail minimum"). One
// wording per language, kept with the page's texts: what the trail says was shown is what the page
// shows in English (a French page shows its translation; see README).
import { TEXTS } from './page/texts.ts'

export const CONSENT_TEXT: string = TEXTS.en.consent
