import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { renderCompleted } from './completed.ts'
import { renderSigningRequest, type SigningRequestInput } from './signing-request.ts'

const URL = 'https://sign.example.eu/s/AbC123?x=1&y=2'

function input(overrides: Partial<SigningRequestInput> = {}): SigningRequestInput {
  return {
    documentName: 'Contract',
    submissionId: 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE',
    signer: { name: 'Ann', email: 'ann@example.eu' },
    signingUrl: URL,
    expiresAt: null,
    message: { subject: null, body: null },
    sender: { account: 'Acme Ltd', replyTo: null },
    ...overrides,
  }
}

/** The href of the button and of the plain link (attribute-escaped). */
const HREF = 'href="https://sign.example.eu/s/AbC123?x=1&amp;y=2"'

describe('the signing request mail', () => {
  it('default wording: who asks, subject and greeting, the button, and the link in plain text in both parts', () => {
    const mail = renderSigningRequest(input())
    assert.equal(mail.subject, 'Please sign “Contract”')
    assert.match(
      mail.text,
      /^Requested by Acme Ltd\n\nHello Ann,\n\nYou are invited to review and sign “Contract”\./,
    )
    assert.ok(mail.text.includes(`Review and sign:\n${URL}\n`))
    assert.equal(mail.html.split(HREF).length - 1, 2, 'a button and a plain link')
    assert.match(mail.html, /bgcolor="#1d4ed8"[^>]*><a href="[^"]+"[^>]*>Review and sign<\/a>/)
    assert.match(mail.html, /<html lang="en">/)
    assert.match(mail.text, /Sent by Paraph, an electronic-signature service, on behalf of Acme Ltd\./)
    assert.doesNotMatch(mail.text, /Reply to this e-mail/)
  })

  // issue #20: the request never said who was asking.
  it("says who asks under the heading: the account's name, and reply_to when given; the footer names the account", () => {
    const mail = renderSigningRequest(
      input({
        sender: { account: 'Acme <Ltd> & Co', replyTo: 'sales@acme.example' },
        message: { subject: 'Sign {{document.name}}', body: 'Dear {{submitter.name}}, here it is.' },
      }),
    )
    assert.match(
      mail.text,
      /^Requested by Acme <Ltd> & Co \(sales@acme\.example\)\n\nDear Ann, here it is\.\n/,
    )
    assert.match(mail.text, /\nReply to this e-mail to reach Acme <Ltd> & Co\.\n/)
    assert.match(
      mail.html,
      /Please sign “Contract”<\/td><\/tr><tr><td style="[^"]*">Requested by Acme &lt;Ltd&gt; &amp; Co \(sales@acme\.example\)<\/td>/,
    )
    assert.ok(
      mail.html.includes(
        'on behalf of Acme &lt;Ltd&gt; &amp; Co.<br>Reply to this e-mail to reach Acme &lt;Ltd&gt; &amp; Co.',
      ),
    )
  })

  it('no external resource in the HTML: no image, stylesheet, script or remote font', () => {
    const { html } = renderSigningRequest(input())
    assert.doesNotMatch(html, /<img|<link|<script|@import|url\(/i)
    assert.deepEqual(
      [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]),
      [URL.replace('&', '&amp;'), URL.replace('&', '&amp;')],
      'the only URL is the signing link',
    )
  })

  it("fills the sender's subject and body; the link variable is a link in HTML; the button stays", () => {
    const mail = renderSigningRequest(
      input({
        expiresAt: '2026-11-30T17:30:00.000Z',
        message: {
          subject: '{{submitter.name}}, sign {{document.name}} ({{submission.id}})',
          body: 'Dear {{ submitter.name }},\nplease sign by {{submission.expires_at}}.\n\nYour link: {{submitter.signing_url}}\nSent to {{submitter.email}}',
        },
      }),
    )
    assert.equal(mail.subject, 'Ann, sign Contract (sub_4f9XqK2mR8sT1vW3yZ5bC7dE)')
    assert.ok(
      mail.text.startsWith(
        `Requested by Acme Ltd\n\nDear Ann,\nplease sign by 30 November 2026 at 17:30 UTC.\n\nYour link: ${URL}\nSent to ann@example.eu\n\nReview and sign:\n${URL}\n\nThis link expires on 30 November 2026 at 17:30 UTC.`,
      ),
      mail.text,
    )
    assert.doesNotMatch(mail.text, /Hello Ann/, "the sender's body replaces the default greeting")
    assert.match(mail.html, /Dear Ann,<br>please sign by 30 November 2026 at 17:30 UTC\./)
    assert.match(mail.html, /Your link: <a href="https:\/\/sign\.example\.eu\/s\/AbC123\?x=1&amp;y=2"/)
    assert.equal(mail.html.split(HREF).length - 1, 3)
  })

  it('lets a long unbroken name wrap: every text cell may break anywhere (no card wider than a phone)', () => {
    const { html } = renderSigningRequest(input({ documentName: 'Contract_final_v2_countersigned_copy.pdf' }))
    const cells = html.match(/<td style="font-family:[^"]*"/g) ?? []
    assert.ok(cells.length >= 5)
    for (const cell of cells) assert.match(cell, /overflow-wrap:anywhere/)
  })

  it('always carries the signing link, even when the body does not use the variable', () => {
    const mail = renderSigningRequest(input({ message: { subject: null, body: 'Please sign.' } }))
    assert.ok(mail.text.includes(URL))
    assert.ok(mail.html.includes(HREF))
  })

  it('escapes everything the sender or signer wrote in the HTML part, never in the text part', () => {
    const evil = '<script>alert(1)</script> "quoted" & \'single\''
    const mail = renderSigningRequest(
      input({
        documentName: `Doc ${evil}`,
        signer: { name: `Eve ${evil}`, email: 'eve@example.eu' },
        message: { subject: `S {{submitter.name}}`, body: `Body ${evil} {{document.name}}` },
      }),
    )
    assert.doesNotMatch(mail.html, /<script>|"quoted"|'single'/)
    assert.ok(
      mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;'),
    )
    assert.ok(mail.text.includes(`Body ${evil} Doc ${evil}`))
  })

  it('the subject stays on one line whatever the sender or the name holds', () => {
    const mail = renderSigningRequest(
      input({
        signer: { name: 'Ann\r\nBcc: x@evil.example', email: 'ann@example.eu' },
        message: { subject: 'Hi\n{{submitter.name}}', body: null },
      }),
    )
    assert.equal(mail.subject, 'Hi Ann Bcc: x@evil.example')
  })

  it('without a name: the name variable is the address and the greeting is plain; reply-to noted', () => {
    const mail = renderSigningRequest(
      input({
        signer: { name: null, email: 'bob@example.eu' },
        message: { subject: 'For {{submitter.name}}', body: null },
        sender: { account: 'Acme Ltd', replyTo: 'sales@acme.example' },
      }),
    )
    assert.equal(mail.subject, 'For bob@example.eu')
    assert.match(mail.text, /^Requested by Acme Ltd \(sales@acme\.example\)\n\nHello,\n/)
    assert.match(mail.text, /Reply to this e-mail to reach Acme Ltd\./)
  })

  it('an empty expiry variable when the submission has no expires_at, and no expiry note', () => {
    const mail = renderSigningRequest(
      input({ message: { subject: null, body: 'By [{{submission.expires_at}}]' } }),
    )
    assert.match(mail.text, /\n\nBy \[\]/)
    assert.doesNotMatch(mail.text, /expires/)
  })
})

describe('the completion mail', () => {
  it("names the document, links to the signer's own page, escapes the names", () => {
    const mail = renderCompleted({
      documentName: 'NDA <v2>',
      signer: { name: 'Ann & Bob' },
      signingUrl: URL,
      sender: { account: 'Acme Ltd', replyTo: null },
    })
    assert.equal(mail.subject, 'Signed by everyone: “NDA <v2>”')
    assert.match(mail.text, /^Hello Ann & Bob,\n\nEveryone has signed “NDA <v2>”\./)
    assert.ok(mail.text.includes(`Download the signed document:\n${URL}\n`))
    assert.ok(mail.html.includes('“NDA &lt;v2&gt;” is signed'))
    assert.ok(mail.html.includes('Hello Ann &amp; Bob,'))
    assert.equal(mail.html.split(HREF).length - 1, 2)
  })

  // docs/api.md#reminders: the request again, its subject marked, a first line saying so.
  it('a reminder: subject beginning "Reminder:", a first line saying so, the same link and the expiry', () => {
    const request = renderSigningRequest(input({ expiresAt: '2026-12-24T09:00:00.000Z' }))
    const reminder = renderSigningRequest(input({ expiresAt: '2026-12-24T09:00:00.000Z', reminder: true }))
    assert.equal(reminder.subject, 'Reminder: Please sign “Contract”')
    assert.match(
      reminder.text,
      /^Requested by Acme Ltd\n\nA reminder: “Contract” is still waiting for your signature\.\n\nHello Ann,/,
    )
    assert.ok(reminder.text.includes(`Review and sign:\n${URL}\n`))
    assert.equal(reminder.html.split(HREF).length - 1, 2, 'the same button and plain link')
    assert.ok(reminder.text.includes('This link expires on 24 December 2026'), reminder.text)
    assert.equal(reminder.text.replace(/^A reminder: .*\n\n/m, ''), request.text)
    const own = renderSigningRequest(
      input({ message: { subject: 'Sign {{document.name}} today', body: null }, reminder: true }),
    )
    assert.equal(own.subject, 'Reminder: Sign Contract today')
  })
})
