// The e-mail code's mail job against a real SMTP server on loopback: HTML and text in
// the signer's language, naming the document and the account; the code in no row of the database
// before, during or after sending; a retry after a failed send sends a code that works; a code
// replaced or expired before its job ran is not sent.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { type CreatedSubmitter, createSubmission, guardedBody, jobsOf, signer } from '../../test/signing.ts'
import { emailCodeJob } from './email-code-job.ts'

const SECOND = 1000

describe('the e-mail code mail job (SMTP)', () => {
  let m: MailTestApp
  before(async () => {
    m = await startMailApp()
  })
  after(() => m.close())

  const guarded = async (email: string) => {
    const body = await guardedBody(['first'], [0], {
      send_email: false,
      message: { subject: 'Please sign: {{document.name}} ({{submission.id}})' },
    })
    body.submitters[0]!.email = email
    return (await createSubmission(m.t, m.key, body)).submitters[0]!
  }
  const send = async (who: CreatedSubmitter, language?: string) => {
    const res = await signer(m.t, who, 'email_2fa/send', undefined, 'link', {
      ...(language ? { 'accept-language': language } : {}),
    })
    assert.equal(res.statusCode, 200, res.body)
  }
  /** The code of the newest mail received at `email`, read from its text part as a signer would. */
  const received = (email: string) => {
    const mails = m.smtp.to(email)
    const code = /^ {4}(\d{6})$/m.exec(mails.at(-1)?.text ?? '')?.[1]
    return { mails, code }
  }
  const verify = (who: CreatedSubmitter, code: string) => signer(m.t, who, 'email_2fa/verify', { code })
  /** Every stored text the code could hide in: jobs (payload, errors), code rows, events. */
  const storedAnywhere = async (code: string) => {
    const rows = [
      ...(await m.t.deps.db.selectFrom('jobs').selectAll().execute()),
      ...(await m.t.deps.db.selectFrom('email_2fa_codes').selectAll().execute()),
      ...(await m.t.deps.db.selectFrom('events').selectAll().execute()),
    ]
    return rows.filter((row) => JSON.stringify(row).includes(code))
  }

  it('mails HTML and text naming the document and the sender, "valid for 10 minutes", and stores the code nowhere', async () => {
    const who = await guarded('ann@example.eu')
    await send(who, 'fr-CH, fr;q=0.9, en;q=0.5')
    await m.work()
    const { mails, code } = received('ann@example.eu')
    assert.equal(mails.length, 1)
    assert.ok(code, mails[0]?.text)
    const [mail] = mails
    assert.equal(mail!.subject, 'Votre code pour ouvrir « Contract »')
    assert.match(mail!.text, /Test account vous demande de signer «\u00a0Contract\u00a0»/)
    assert.match(mail!.text, /Ce code est valable 10 minutes/)
    assert.match(mail!.html, /<html lang="fr">/)
    assert.ok(mail!.html.includes(`>${code}</span>`))
    for (const part of [mail!.subject, mail!.text, mail!.html]) {
      assert.doesNotMatch(part, /\{\{|Please sign:|UTC/, 'no sender template, no clock time')
    }
    assert.deepEqual(await storedAnywhere(code), [])
    assert.equal((await verify(who, code)).statusCode, 200)
  })

  it('a send refused by the mail server (451) is retried 10 s later with the same code, which works', async () => {
    const who = await guarded('grey-code@example.eu')
    m.smtp.refuse = (to) =>
      to === 'grey-code@example.eu' ? { code: 451, message: '4.7.1 Greylisted' } : null
    try {
      await send(who)
      await m.work()
      assert.equal(m.smtp.to('grey-code@example.eu').length, 0)
      const [job] = (await jobsOf(m.t, emailCodeJob.kind)).filter((j) => j.payload.submitter_id === who.id)
      assert.deepEqual([job!.state, job!.attempt], ['pending', 1])
      assert.match(job!.last_error ?? '', /451 4\.7\.1 Greylisted/)
      m.smtp.refuse = () => null
      m.t.clock.advance(10 * SECOND)
      await m.work()
    } finally {
      m.smtp.refuse = () => null
    }
    const { mails, code } = received('grey-code@example.eu')
    assert.equal(mails.length, 1)
    assert.ok(code)
    assert.match(mails[0]!.subject, /^Your code to open “Contract”$/)
    assert.deepEqual(await storedAnywhere(code), [])
    assert.equal((await verify(who, code)).statusCode, 200)
  })

  it('a code replaced before its mail left is not sent; the new one is, and only it works', async () => {
    const who = await guarded('twice-code@example.eu')
    await send(who)
    m.t.clock.advance(30 * SECOND)
    await send(who)
    await m.work()
    const { mails, code } = received('twice-code@example.eu')
    assert.equal(mails.length, 1, 'one mail: the first code was replaced before it was sent')
    assert.equal((await verify(who, code!)).statusCode, 200)
    const skipped = m.t.logs
      .entries()
      .filter((e) => e.msg === 'e-mail code not sent: it was replaced, used or voided, or has expired')
    assert.ok(skipped.some((e) => e.submitter_id === who.id))
  })

  it('a code whose mail could not leave within its 10 minutes is not sent at all', async () => {
    const who = await guarded('late-code@example.eu')
    await send(who)
    m.t.clock.advance(10 * 60 * SECOND)
    await m.work()
    assert.equal(m.smtp.to('late-code@example.eu').length, 0)
  })
})
