// Every mail Paraph writes, in every language it writes them in (issue #20): an HTML part and a
// text part saying the same, in that language, and the French ones free of English.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { renderCompleted } from './completed.ts'
import type { RenderedMail } from './layout.ts'
import { renderSigningRequest } from './signing-request.ts'
import { renderSigningRequestCopy } from './signing-request-copy.ts'
import { MAIL_LANGUAGES, type MailTexts, mailTexts } from './texts.ts'
import { renderWebhookFailing } from './webhook-failing.ts'

const URL = 'https://sign.example.eu/s/AbC123'
const sender = { account: 'Acme Ltd', replyTo: 'sales@acme.example' }
const signer = { name: 'Ann', email: 'ann@example.eu' }
const expiresAt = '2026-11-30T17:30:00.000Z'

/** Every mail kind, rendered with `texts`. */
export function everyMail(texts: MailTexts): Record<string, RenderedMail> {
  const common = { documentName: 'Contract', submissionId: 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE', expiresAt, sender }
  return {
    signing_request: renderSigningRequest(
      { ...common, signer, signingUrl: URL, message: { subject: null, body: null } },
      texts,
    ),
    signing_request_copy: renderSigningRequestCopy({ ...common, signer }, texts),
    completed: renderCompleted({ documentName: 'Contract', signer, signingUrl: URL, sender }, texts),
    webhook_failing: renderWebhookFailing(
      {
        url: 'https://hooks.acme.example/paraph',
        endpointId: 'whk_4f9XqK2mR8sT1vW3yZ5bC7dE',
        failures: 8,
        lastError: 'HTTP 503',
        disableAfterDays: 3,
      },
      texts,
    ),
  }
}

/** Words of the English mails that no French mail may keep. */
const ENGLISH_WORDS =
  /\b(Please|Hello|Review and sign|Requested by|Sent by|Reply to|expires|Everyone|Download|Reference|If the button|failing|Last error|for your records)\b/

describe('every mail in every language', () => {
  for (const language of MAIL_LANGUAGES) {
    it(`${language}: an HTML part (lang="${language}") and a plain-text part with the same words`, () => {
      for (const [kind, mail] of Object.entries(everyMail(mailTexts(language)))) {
        assert.match(mail.html, new RegExp(`^<!DOCTYPE html>\\n<html lang="${language}">`), kind)
        assert.ok(mail.text.trim().length > 100, kind)
        assert.doesNotMatch(mail.text, /<[a-z]/i, `${kind}: no markup in the text part`)
        assert.ok(mail.subject.length > 0 && !/\n/.test(mail.subject), kind)
        // The first line of the text part is in the HTML part too (apostrophes and quotes escaped).
        const first = mail.text.split('\n')[0]!.replace(/’/g, '’')
        assert.ok(mail.html.includes(first.replace(/&/g, '&amp;')), `${kind}: "${first}" in the HTML part`)
      }
    })
  }

  it('fr: no English left in any French mail, dates in French', () => {
    for (const [kind, mail] of Object.entries(everyMail(mailTexts('fr')))) {
      for (const part of [mail.subject, mail.text])
        assert.doesNotMatch(part, ENGLISH_WORDS, `${kind}: ${part}`)
    }
    const request = everyMail(mailTexts('fr')).signing_request!
    // French typography: a no-break space before ":" and inside « » (a subject line keeps plain spaces).
    assert.ok(
      request.text.startsWith('Demandeur\u00a0: Acme Ltd (sales@acme.example)\n\nBonjour Ann,\n'),
      request.text,
    )
    assert.ok(request.text.includes('Nous vous invitons à relire et à signer «\u00a0Contract\u00a0».'))
    assert.ok(request.text.includes('Ce lien expire le 30 novembre 2026 à 17:30 UTC.'))
    assert.ok(request.text.includes(`Relire et signer\u00a0:\n${URL}\n`))
    assert.equal(request.subject, 'Document à signer : « Contract »')
  })
})
