// Every mail Paraph writes, in every language it writes them in: an HTML part and a
// text part saying the same, in that language, and the French ones free of English.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { everyMail, SAMPLE_URL } from '../../../test/fixtures/mails.ts'
import { MAIL_LANGUAGES, mailTexts } from './texts.ts'

/** Words of the English mails that no French mail may keep. */
const ENGLISH_WORDS =
  /\b(Please|Hello|Review and sign|Requested by|Sent by|Reply to|expires|Everyone|Download|Reference|If the button|failing|Last error|for your records|Reminder|waiting)\b/

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
    assert.ok(request.text.includes(`Relire et signer\u00a0:\n${SAMPLE_URL}\n`))
    assert.equal(request.subject, 'Document à signer : « Contract »')
    const reminder = everyMail(mailTexts('fr')).signing_request_reminder!
    assert.equal(reminder.subject, 'Rappel : Document à signer : « Contract »')
    assert.ok(
      reminder.text.includes('Un rappel\u00a0: «\u00a0Contract\u00a0» attend toujours votre signature.'),
    )
    assert.ok(reminder.text.includes('Ce lien expire le 30 novembre 2026 à 17:30 UTC.'))
  })
})
