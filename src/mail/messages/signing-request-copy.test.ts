// The copy `bcc_email` receives says that a request went out — document, signer,
// account — and holds no link of any kind, nor the sender's message (whose variables may name the link).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { renderSigningRequestCopy, type SigningRequestCopyInput } from './signing-request-copy.ts'
import { mailTexts } from './texts.ts'

function input(overrides: Partial<SigningRequestCopyInput> = {}): SigningRequestCopyInput {
  return {
    documentName: 'Contract',
    submissionId: 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE',
    signer: { name: 'Ann Smith', email: 'ann@example.eu' },
    expiresAt: '2026-11-30T17:30:00.000Z',
    sender: { account: 'Acme Ltd', replyTo: 'sales@acme.example' },
    ...overrides,
  }
}

describe('the copy of a signing request (bcc_email)', () => {
  it('names the document, the signer and the account, with the reference and the expiry', () => {
    const mail = renderSigningRequestCopy(input())
    assert.equal(mail.subject, 'Sent for signature: “Contract” to Ann Smith')
    assert.equal(
      mail.text,
      [
        'Acme Ltd sent “Contract” to Ann Smith (ann@example.eu) for signature.',
        'This copy is for your records. It holds no signing link: only the signer can open the document and sign it, from their own e-mail.',
        'Reference: sub_4f9XqK2mR8sT1vW3yZ5bC7dE',
        'The signer’s link expires on 30 November 2026 at 17:30 UTC.',
        '--\nSent by Paraph, an electronic-signature service, on behalf of Acme Ltd.\nIf you did not expect this e-mail, you can ignore it.\n',
      ].join('\n\n'),
    )
    assert.ok(mail.html.includes('“Contract” was sent for signature'))
    assert.ok(mail.html.includes('Acme Ltd sent “Contract” to Ann Smith (ann@example.eu) for signature.'))
  })

  it('holds no link at all: no <a>, no href, no URL, no button', () => {
    const { html, text } = renderSigningRequestCopy(input())
    assert.doesNotMatch(html, /<a\b|href=|https?:|bgcolor=/i)
    assert.doesNotMatch(text, /https?:|\/s\/|\/embed\//)
  })

  it('a signer without a name is their address; no expiry note without expires_at; names escaped in HTML', () => {
    const mail = renderSigningRequestCopy(
      input({ signer: { name: null, email: 'bob@example.eu' }, expiresAt: null, documentName: 'NDA <v2>' }),
    )
    assert.equal(mail.subject, 'Sent for signature: “NDA <v2>” to bob@example.eu')
    assert.match(mail.text, /^Acme Ltd sent “NDA <v2>” to bob@example\.eu for signature\./)
    assert.doesNotMatch(mail.text, /expires/)
    assert.ok(mail.html.includes('“NDA &lt;v2&gt;” was sent for signature'))
  })

  it('in French', () => {
    const mail = renderSigningRequestCopy(input(), mailTexts('fr'))
    assert.equal(mail.subject, 'Envoyé pour signature : « Contract » à Ann Smith')
    // French typography: no-break spaces inside « » (a subject line keeps plain spaces).
    assert.ok(
      mail.text.startsWith(
        'Acme Ltd a envoyé «\u00a0Contract\u00a0» à Ann Smith (ann@example.eu) pour signature.',
      ),
    )
    assert.match(mail.text, /Le lien du signataire expire le 30 novembre 2026 à 17:30 UTC\./)
    assert.match(mail.html, /<html lang="fr">/)
  })
})
