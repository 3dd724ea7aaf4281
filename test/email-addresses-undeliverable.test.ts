// docs/api.md#e-mail-addresses when mail cannot reach a non-ASCII local part: a real SMTP server
// that does not announce SMTPUTF8 (422 email_not_deliverable on every route where an address
// enters; the mailer refuses for good to send one), and no reachable server (the outbox accepts
// it; an SMTP_URL nobody answers refuses it, saying to try again).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MailRejectedError } from '../src/mail/mailer.ts'
import { SmtpMailer } from '../src/mail/smtp-mailer.ts'
import { JORG, rcptTo, refusedWith, templateBody, toHeader, ZOE, ZOE_ASCII } from './addresses.ts'
import { createTemplateFor, fromPdfBody, post } from './documents.ts'
import { errorOf, startTestApp, type TestApp } from './harness.ts'
import { type MailTestApp, startMailApp } from './mail.ts'

describe('e-mail addresses, SMTP server without SMTPUTF8', () => {
  let m: MailTestApp
  let templateId: string
  before(async () => {
    m = await startMailApp({}, { smtputf8: false })
    templateId = await createTemplateFor(m.t, m.key)
  })
  after(() => m.close())

  const NOT_DELIVERABLE = /the local part "jörg" is not ASCII and the SMTP server does not announce SMTPUTF8/

  it('422 email_not_deliverable on each creating route, for a submitter, bcc_email and reply_to', async () => {
    refusedWith(
      await post(m.t, m.key, '/v1/submissions', templateBody(templateId, ZOE, JORG)),
      'email_not_deliverable',
      'submitters[1].email',
      NOT_DELIVERABLE,
    )
    refusedWith(
      await post(
        m.t,
        m.key,
        '/v1/submissions',
        templateBody(templateId, ZOE, 'b@example.eu', { bcc_email: JORG }),
      ),
      'email_not_deliverable',
      'bcc_email',
      NOT_DELIVERABLE,
    )
    refusedWith(
      await post(
        m.t,
        m.key,
        '/v1/submissions/from_pdf',
        await fromPdfBody({ submitters: [{ role: 'signer', email: ZOE }], reply_to: JORG }),
      ),
      'email_not_deliverable',
      'reply_to',
      NOT_DELIVERABLE,
    )
    const tagged = { name: 'Agreement', submitters: [{ role: 'Buyer', email: JORG }] }
    refusedWith(
      await post(m.t, m.key, '/v1/submissions/from_html', {
        ...tagged,
        html: '<p>{{Sign;role=Buyer;type=signature}}</p>',
      }),
      'email_not_deliverable',
      'submitters[0].email',
      NOT_DELIVERABLE,
    )
    refusedWith(
      await post(m.t, m.key, '/v1/submissions/from_docx', {
        ...tagged,
        file: Buffer.from('not read').toString('base64'),
      }),
      'email_not_deliverable',
      'submitters[0].email',
      NOT_DELIVERABLE,
    )
    assert.equal(m.smtp.received.length, 0)
  })

  it('an internationalized domain with an ASCII local part is still sent, to the ASCII form', async () => {
    const res = await post(m.t, m.key, '/v1/submissions', templateBody(templateId, ZOE, 'second@example.eu'))
    assert.equal(res.statusCode, 201, res.body)
    await m.work()
    const [mail] = await m.smtp.waitFor((x) => x.envelope.to.includes(ZOE))
    assert.ok(rcptTo(m).includes(`RCPT TO:<${ZOE_ASCII}>`), rcptTo(m).join('\n'))
    assert.match(toHeader(mail!), /zoe@xn--mller-bau-q9a\.de/)
    assert.ok(
      m.smtp.mailFrom.every((f) => !f.smtputf8),
      'no MAIL FROM asked for SMTPUTF8',
    )
  })

  it('422 email_not_deliverable on PATCH /v1/submitters/{id}', async () => {
    const res = await post(
      m.t,
      m.key,
      '/v1/submissions',
      templateBody(templateId, 'first@example.eu', 'second@example.eu'),
    )
    const patched = await m.t.request(m.key, {
      method: 'PATCH',
      url: `/v1/submitters/${res.json().submitters[0].id}`,
      payload: { email: JORG },
    })
    refusedWith(patched, 'email_not_deliverable', 'email', NOT_DELIVERABLE)
  })

  it('the mailer refuses for good a queued mail to such an address (it waited in the outbox): nothing reaches the server', async () => {
    const mailer = new SmtpMailer(m.smtp.url, 'Paraph <no-reply@localhost>', m.t.deps.logger)
    const before = m.smtp.received.length
    try {
      const message = {
        kind: 'signing_request',
        to: JORG,
        to_name: null,
        bcc: null,
        reply_to: null,
        subject: 'S',
        text: 'T',
        html: null,
        submission_id: null,
        submitter_id: null,
      }
      await assert.rejects(
        mailer.send(message as never, '<x@paraph>'),
        (error) => error instanceof MailRejectedError && /SMTPUTF8/.test(error.message),
      )
    } finally {
      await mailer.close()
    }
    assert.equal(m.smtp.received.length, before)
  })
})

describe('e-mail addresses without an SMTP server', () => {
  it('201 with the outbox, which keeps the mail for a later server; 422 while SMTP_URL cannot be asked', async () => {
    const outbox = await startTestApp()
    try {
      const key = (await outbox.account()).testKey
      const res = await post(
        outbox,
        key,
        '/v1/submissions/from_pdf',
        await fromPdfBody({ submitters: [{ role: 'signer', email: JORG }] }),
      )
      assert.equal(res.statusCode, 201, res.body)
    } finally {
      await outbox.close()
    }
    // A port nobody listens on: the probe is refused at once.
    const down: TestApp = await startTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } })
    try {
      const key = (await down.account()).testKey
      const res = await post(
        down,
        key,
        '/v1/submissions/from_pdf',
        await fromPdfBody({ submitters: [{ role: 'signer', email: JORG }] }),
      )
      refusedWith(
        res,
        'email_not_deliverable',
        'submitters[0].email',
        /could not be asked whether it announces SMTPUTF8/,
      )
      assert.match(errorOf(res).message, /try again later/)
      const plain = await post(
        down,
        key,
        '/v1/submissions/from_pdf',
        await fromPdfBody({ submitters: [{ role: 'signer', email: ZOE }] }),
      )
      assert.equal(plain.statusCode, 201, 'an ASCII local part needs no answer from the server')
      assert.ok(
        down.logs.lines.some((l) => /could not be asked whether it announces SMTPUTF8/.test(l)),
        'the probe logged why',
      )
    } finally {
      await down.close()
    }
  })
})
