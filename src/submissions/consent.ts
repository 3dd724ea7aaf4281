// The consent a signer gives by signing: shown on the signing page above the sign button, returned
// in the signing form, and quoted in the audit trail (docs/security.md#audit-trail). One
// wording per language, kept with the page's texts. The page sends its language with the signature
// and the trail quotes the wording in that language; English when none was sent.
import { StringEnum } from '../http/common-schemas.ts'
import { isLanguage, LANGUAGES, TEXTS } from '../signing-page/page/texts.ts'

export const CONSENT_TEXT: string = TEXTS.en.consent

/**
 * The `language` a sign or decline request may carry: the page's language when
 * the signer acted, kept on the submitter so the audit trail quotes the consent they read.
 */
export const PageLanguage = StringEnum(LANGUAGES, {
  description: `The signing page's language when the signer acted (${LANGUAGES.join(', ')}): the audit trail quotes the consent in it`,
})

/** The consent as the page showed it in `language` (an unknown or unrecorded one: English). */
export function consentIn(language: string | null): { text: string; language: string | null } {
  if (!isLanguage(language)) return { text: CONSENT_TEXT, language: null }
  return { text: TEXTS[language].consent, language }
}
