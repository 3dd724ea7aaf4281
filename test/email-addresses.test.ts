// docs/api.md#e-mail-addresses through the real app and a real SMTP server announcing SMTPUTF8:
// addresses as people write them are accepted, stored and shown as written (lower-cased), found by
// the `email` filter in either spelling of their domain, mailed to the domain's ASCII form (a
// non-ASCII local part with SMTPUTF8), and refused naming the field and why. Without SMTPUTF8 or
// without a server: email-addresses-undeliverable.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CHINESE, JORG, rcptTo, refusedWith, templateBody, toHeader, ZOE, ZOE_ASCII } from './addresses.ts'
import { createTemplateFor, fromPdfBody, post } from './documents.ts'
import { type MailTestApp, startMailApp } from './mail.ts'

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
