import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type EmailCodeMailInput, renderEmailCodeMail } from './email-code.ts'

function input(overrides: Partial<EmailCodeMailInput> = {}): EmailCodeMailInput {
  return {
    language: 'en',
    documentName: 'Lease 2027',
    senderName: 'Acme Rentals',
    signerName: 'Ann',
    code: '042917',
    ...overrides,
  }
}

/** The text of the HTML part, tags dropped and entities of the layout read back. */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')

describe('the e-mail code mail (issue #20)', () => {
  it('HTML and text: the document, the sender, the code on a line of its own, "valid for 10 minutes"', () => {
    const mail = renderEmailCodeMail(input())
    assert.equal(mail.subject, 'Your code to open “Lease 2027”')
    assert.ok(!mail.subject.includes('042917'), 'never in the subject (lock screens show it)')
    assert.match(
      mail.text,
      /^Hello Ann,\n\nAcme Rentals asked you to sign “Lease 2027”\. To open the document/,
    )
    assert.match(mail.text, /^ {4}042917$/m)
    assert.match(mail.text, /The code is valid for 10 minutes and can be used once\./)
    assert.match(mail.html, /<html lang="en">/)
    const html = visible(mail.html)
    for (const words of ['Acme Rentals asked you to sign “Lease 2027”', '042917', 'valid for 10 minutes']) {
      assert.ok(html.includes(words), `${words} in ${html}`)
    }
    assert.match(mail.html, /letter-spacing:8px;[^"]*">042917<\/span>/)
  })

  it('no clock time, no URL, no variable left unfilled', () => {
    const mail = renderEmailCodeMail(input())
    for (const part of [mail.text, mail.html, mail.subject]) {
      assert.doesNotMatch(part, /\d{1,2}:\d{2}|UTC|\d{4}-\d{2}-\d{2}T/)
      assert.doesNotMatch(part, /\{\{|https?:/)
    }
  })

  it('escapes the names it is given in the HTML part', () => {
    const mail = renderEmailCodeMail(
      input({ documentName: '<img src=x onerror=alert(1)>', senderName: 'A & B "Co"' }),
    )
    assert.doesNotMatch(mail.html, /<img/)
    assert.ok(mail.html.includes('&lt;img src=x onerror=alert(1)&gt;'))
    assert.ok(mail.html.includes('A &amp; B &quot;Co&quot;'))
    assert.ok(mail.text.includes('<img src=x onerror=alert(1)>'), 'the text part is text')
  })

  const LANGUAGES: Array<[string, RegExp, RegExp, RegExp]> = [
    [
      'fr',
      /^Votre code pour ouvrir « Lease 2027 »$/,
      /^Bonjour Ann,\n\nAcme Rentals vous demande de signer/,
      /valable 10 minutes/,
    ],
    [
      'de',
      /^Ihr Code zum Öffnen von „Lease 2027“$/,
      /^Hallo Ann,\n\nAcme Rentals bittet Sie/,
      /10 Minuten lang gültig/,
    ],
    [
      'es',
      /^Su código para abrir «Lease 2027»$/,
      /^Hola, Ann:\n\nAcme Rentals le pide que firme/,
      /válido durante 10 minutos/,
    ],
  ]
  for (const [language, subject, opening, validity] of LANGUAGES) {
    it(`in ${language}: subject, greeting, validity, footer and the html lang`, () => {
      const mail = renderEmailCodeMail(input({ language }))
      assert.match(mail.subject, subject)
      assert.match(mail.text, opening)
      assert.match(mail.text, validity)
      assert.match(mail.text, /^ {4}042917$/m)
      assert.match(mail.html, new RegExp(`<html lang="${language}">`))
      assert.doesNotMatch(mail.text, /Sent by Paraph|Hello/, 'no English left')
    })
  }

  it('English for a language it is not written in, and a greeting without a name', () => {
    const mail = renderEmailCodeMail(input({ language: 'pt', signerName: null }))
    assert.match(mail.text, /^Hello,\n\n/)
    assert.match(mail.html, /<html lang="en">/)
  })
})
