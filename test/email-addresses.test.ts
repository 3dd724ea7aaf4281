// docs/api.md#e-mail-addresses through the real app and a real SMTP server: addresses as people
// write them are accepted by every route where one enters, stored and shown as written (lower-cased),
// found by the `email` filter in either spelling of their domain, and mailed to the domain's ASCII
// form; a local part that is not ASCII only when the SMTP server announces SMTPUTF8 (else 422
// email_not_deliverable naming the field), and with the outbox, which keeps mail for a later server.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MailRejectedError } from '../src/mail/mailer.ts'
import { SmtpMailer } from '../src/mail/smtp-mailer.ts'
import { createTemplateFor, fromPdfBody, post } from './documents.ts'
import type { ReceivedMail } from './fixtures/smtp.ts'
import { errorOf, startTestApp, type TestApp } from './harness.ts'
import { type MailTestApp, startMailApp } from './mail.ts'

const ZOE = 'zoe@müller-bau.de'
const ZOE_ASCII = 'zoe@xn--mller-bau-q9a.de'
const JORG = 'jörg@müller-bau.de'
const CHINESE = '用户@例子.广告'

/** The raw `To:` header line as the server received it (mailparser keeps raw bytes as latin1). */
function toHeader(mail: ReceivedMail): string {
  const line = mail.parsed.headerLines.find((h) => h.key === 'to')?.line ?? ''
  return Buffer.from(line, 'latin1').toString('utf8')
}

/** What RCPT TO carried on the wire (the fixture's envelope shows xn-- domains decoded). */
function rcptTo(m: MailTestApp): string[] {
  return m.smtp.commands.filter((c) => c.startsWith('RCPT TO:'))
}

function refusedWith(
  res: { statusCode: number; body: string },
  code: string,
  param: string,
  message: RegExp,
) {
  assert.equal(res.statusCode, 422, res.body)
  const error = JSON.parse(res.body).error
  assert.deepEqual([error.code, error.param], [code, param], res.body)
  assert.match(error.message, message)
}

const templateBody = (
  templateId: string,
  first: string,
  second: string,
  extra: Record<string, unknown> = {},
) => ({
  template_id: templateId,
  signing_order: 'random',
  submitters: [
    { role: 'first', email: first, name: 'Zoë' },
    { role: 'second', email: second },
  ],
  ...extra,
})

describe('e-mail addresses, SMTP server announcing SMTPUTF8', () => {
  let m: MailTestApp
  let templateId: string
  before(async () => {
    m = await startMailApp()
    templateId = await createTemplateFor(m.t, m.key)
  })
  after(() => m.close())

  it('201 an internationalized domain and a non-ASCII local part, shown as written; mail goes to the ASCII domain', async () => {
    const res = await post(
      m.t,
      m.key,
      '/v1/submissions',
      templateBody(templateId, 'Zoe@Müller-Bau.de', JORG, { bcc_email: 'archiv@müller-bau.de' }),
    )
    assert.equal(res.statusCode, 201, res.body)
    const created = res.json()
    assert.deepEqual(
      created.submitters.map((s: { email: string }) => s.email),
      [ZOE, JORG],
    )
    const got = await m.t.request(m.key, { method: 'GET', url: `/v1/submitters/${created.submitters[0].id}` })
    assert.equal(got.json().email, ZOE)
    await m.work()
    const [zoe] = await m.smtp.waitFor((mail) => mail.envelope.to.includes(ZOE))
    assert.ok(rcptTo(m).includes(`RCPT TO:<${ZOE_ASCII}>`), rcptTo(m).join('\n'))
    assert.match(
      toHeader(zoe!),
      /<zoe@xn--mller-bau-q9a\.de>/,
      'the header is ASCII: the domain in its xn-- form',
    )
    assert.match(toHeader(zoe!), /=\?UTF-8\?/i, 'the name Zoë as an encoded word')
    await m.smtp.waitFor((mail) => mail.envelope.to.includes('archiv@müller-bau.de'))
    assert.ok(rcptTo(m).includes('RCPT TO:<archiv@xn--mller-bau-q9a.de>'), 'the bcc too, in ASCII')
    // RFC 6531: with SMTPUTF8 the whole address travels in UTF-8 (nodemailer keeps the domain's
    // U-labels beside a UTF-8 local part), and MAIL FROM asks for SMTPUTF8.
    const [jorg] = await m.smtp.waitFor((mail) => mail.envelope.to.includes(JORG))
    assert.match(toHeader(jorg!), /jörg@müller-bau\.de/)
    assert.ok(
      m.smtp.mailFrom.some((f) => f.smtputf8),
      'a MAIL FROM carried SMTPUTF8',
    )
    assert.equal(jorg!.text.includes('/s/'), true, 'the signing request itself')
  })

  it('201 from_pdf with 用户@例子.广告 and a pre-encoded xn-- address, each kept as written', async () => {
    const res = await post(
      m.t,
      m.key,
      '/v1/submissions/from_pdf',
      await fromPdfBody({
        submitters: [{ role: 'signer', email: CHINESE }],
        reply_to: 'Ventes@XN--MLLER-BAU-Q9A.DE',
      }),
    )
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(res.json().submitters[0].email, CHINESE)
    const sub = await m.t.request(m.key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })
    assert.equal(sub.json().reply_to, 'Ventes@XN--MLLER-BAU-Q9A.DE')
    await m.work()
    const [mail] = await m.smtp.waitFor((x) => x.envelope.to.includes(CHINESE))
    assert.match(toHeader(mail!), /用户@例子\.广告/)
  })

  it('GET /v1/submitters?email= finds an address by its Unicode or its xn-- spelling, in any case', async () => {
    const res = await post(
      m.t,
      m.key,
      '/v1/submissions/from_pdf',
      await fromPdfBody({ submitters: [{ role: 'signer', email: 'ann@xn--mller-bau-q9a.de' }] }),
    )
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(res.json().submitters[0].email, 'ann@xn--mller-bau-q9a.de', 'pre-encoded, shown as written')
    for (const query of ['ann@müller-bau.de', 'ANN@XN--MLLER-BAU-Q9A.DE', 'Ann@Müller-Bau.DE']) {
      const list = await m.t.request(m.key, {
        method: 'GET',
        url: `/v1/submitters?email=${encodeURIComponent(query)}`,
      })
      assert.equal(list.statusCode, 200, list.body)
      assert.deepEqual(
        list.json().data.map((s: { id: string }) => s.id),
        [res.json().submitters[0].id],
        query,
      )
    }
    const zoes = await m.t.request(m.key, {
      method: 'GET',
      url: `/v1/submitters?email=${encodeURIComponent(ZOE_ASCII)}`,
    })
    assert.deepEqual(
      zoes.json().data.map((s: { email: string }) => s.email),
      [ZOE],
    )
  })

  it('422 invalid_request naming the field and why: a bad domain, a look-alike, the limits of the encoded form', async () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'zoe@müller_bau.de',
        'submitters[0].email',
        /^submitters\[0\]\.email: the domain "müller_bau\.de" is not a valid internationalized domain name\.$/,
      ],
      [
        'zoe@p\u0430ypal.com',
        'submitters[0].email',
        /mixes Latin and Cyrillic letters in the label "p\u0430ypal"/,
      ],
      ['zoe@xn--pypal-4ve.com', 'submitters[0].email', /mixes Latin and Cyrillic letters/],
      [
        `${'ö'.repeat(33)}@example.com`,
        'submitters[0].email',
        /the local part is 66 octets once encoded in UTF-8; at most 64/,
      ],
      [
        `zoe@${'äöüéèêëïîôûçñåàáâãæíìóòúùý'.repeat(2)}.de`,
        'submitters[0].email',
        /label of 65 characters in its ASCII form; at most 63/,
      ],
    ]
    for (const [email, param, message] of cases) {
      const res = await post(
        m.t,
        m.key,
        '/v1/submissions/from_pdf',
        await fromPdfBody({ submitters: [{ role: 'signer', email }] }),
      )
      refusedWith(res, 'invalid_request', param, message)
    }
    const bcc = await post(
      m.t,
      m.key,
      '/v1/submissions',
      templateBody(templateId, ZOE, JORG, { bcc_email: 'a@b@c' }),
    )
    refusedWith(bcc, 'invalid_request', 'bcc_email', /^bcc_email: /)
  })

  it('PATCH /v1/submitters/{id}: a non-ASCII local part is accepted; the xn-- spelling of the same address changes nothing', async () => {
    const res = await post(
      m.t,
      m.key,
      '/v1/submissions',
      templateBody(templateId, 'first@example.eu', 'second@example.eu'),
    )
    const id = res.json().submitters[0].id
    const patch = (email: string) =>
      m.t.request(m.key, {
        method: 'PATCH',
        url: `/v1/submitters/${id}`,
        payload: { email },
      })
    const changed = await patch(JORG)
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal(changed.json().email, JORG)
    const same = await patch('JÖRG@xn--mller-bau-q9a.de')
    assert.equal(same.json().email, JORG)
    assert.equal(same.json().signing_url, changed.json().signing_url, 'the same address: no new link')
  })
})

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
