// Who is mailed and when (api-v1 §2.2 signing_order, send_email; §3.3 `sent`), and what the mail
// says (message.subject/body variables), read from a real SMTP server after the worker ran.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ReceivedMail } from '../../test/fixtures/smtp.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import {
  type Created,
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  SIGNATURE,
  signer,
  submissionRow,
} from '../../test/signing.ts'

describe('signing requests by e-mail', () => {
  let m: MailTestApp
  before(async () => {
    m = await startMailApp()
  })
  after(() => m.close())

  /** The mails of a submission so far (each carries one of its signing URLs), as `recipient` lists. */
  const mailsOf = (created: Created): ReceivedMail[] =>
    m.smtp.received.filter((mail) => created.submitters.some((s) => mail.text.includes(s.signing_url)))
  const recipients = (created: Created) => mailsOf(created).map((mail) => mail.envelope.to.join(','))
  const sign = async (created: Created, index: number) => {
    const values =
      index === 0 ? FIRST_VALUES : { [`${['first', 'second', 'third'][index]} signature`]: SIGNATURE }
    const res = await signer(m.t, created.submitters[index]!, 'sign', { values })
    assert.equal(res.statusCode, 200, res.body)
  }
  const sentEvents = async (created: Created) =>
    (await eventsOf(m.t, created.id)).filter((e) => e.type === 'submission.sent').length

  describe('signing_order', () => {
    it('preserved: the first signer is mailed at creation (status sent), the second only once the first signed', async () => {
      const created = await createSubmission(m.t, m.key, await everyTypeBody(['first', 'second']))
      assert.equal((await submissionRow(m.t, created.id)).status, 'sent')
      assert.equal(await sentEvents(created), 1)
      await m.work()
      assert.deepEqual(recipients(created), ['first@example.eu'])
      const [mail] = mailsOf(created)
      assert.ok(mail?.text.includes(created.submitters[0]!.signing_url))

      await sign(created, 0)
      await m.work()
      assert.deepEqual(recipients(created), ['first@example.eu', 'second@example.eu'])
      assert.ok(mailsOf(created)[1]!.text.includes(created.submitters[1]!.signing_url))
      assert.equal(await sentEvents(created), 1)
    })

    it('random: every signer is mailed at once, and a signature mails nobody again', async () => {
      const created = await createSubmission(
        m.t,
        m.key,
        await everyTypeBody(['first', 'second', 'third'], { signing_order: 'random' }),
      )
      assert.equal((await submissionRow(m.t, created.id)).status, 'sent')
      await m.work()
      assert.deepEqual(recipients(created).sort(), [
        'first@example.eu',
        'second@example.eu',
        'third@example.eu',
      ])
      await sign(created, 1)
      await m.work()
      assert.equal(mailsOf(created).length, 3)
    })
  })

  describe('send_email', () => {
    it('false on the submission: nobody is mailed, at creation or after a signature; the status stays created', async () => {
      const created = await createSubmission(
        m.t,
        m.key,
        await everyTypeBody(['first', 'second'], { send_email: false }),
      )
      assert.equal((await submissionRow(m.t, created.id)).status, 'created')
      assert.equal(await sentEvents(created), 0)
      await sign(created, 0)
      await m.work()
      assert.deepEqual(recipients(created), [])
    })

    it('false on the first submitter in preserved order: no mail until they signed, then the second is mailed', async () => {
      const body = await everyTypeBody(['first', 'second'])
      body.submitters[0] = { ...body.submitters[0]!, send_email: false } as (typeof body.submitters)[0]
      const created = await createSubmission(m.t, m.key, body)
      assert.equal((await submissionRow(m.t, created.id)).status, 'created', 'no request went out')
      await m.work()
      assert.deepEqual(recipients(created), [])
      await sign(created, 0)
      await m.work()
      assert.deepEqual(recipients(created), ['second@example.eu'])
    })

    it('false on one submitter in random order: the others are mailed, not that one', async () => {
      const body = await everyTypeBody(['first', 'second', 'third'], { signing_order: 'random' })
      body.submitters[1] = { ...body.submitters[1]!, send_email: false } as (typeof body.submitters)[1]
      const created = await createSubmission(m.t, m.key, body)
      await m.work()
      assert.deepEqual(recipients(created).sort(), ['first@example.eu', 'third@example.eu'])
    })
  })

  describe('message.subject and message.body', () => {
    it('fills the variables in the subject, the text and the HTML (escaped), and keeps the button and link', async () => {
      const created = await createSubmission(
        m.t,
        m.key,
        await everyTypeBody(['first'], {
          expires_at: '2026-12-01T09:00:00Z',
          message: {
            subject: '{{submitter.name}}: {{document.name}} to sign',
            body: 'Dear {{submitter.name}} <3,\n\nfor {{submitter.email}} ({{submission.id}}), until {{submission.expires_at}}.\nYour link: {{ submitter.signing_url }}',
          },
        }),
      )
      await m.work()
      const [mail] = mailsOf(created)
      assert.ok(mail)
      const url = created.submitters[0]!.signing_url
      assert.equal(mail.subject, 'FIRST: Contract to sign')
      assert.ok(
        mail.text.startsWith(
          `Dear FIRST <3,\n\nfor first@example.eu (${created.id}), until 1 December 2026 at 09:00 UTC.\nYour link: ${url}\n\nReview and sign:\n${url}\n`,
        ),
        mail.text,
      )
      assert.match(mail.html, /Dear FIRST &lt;3,/)
      assert.ok(mail.html.includes(`Your link: <a href="${url}"`), mail.html)
      assert.equal(mail.html.split(`href="${url}"`).length - 1, 3, 'the variable, the button, the plain link')
      assert.ok(mail.html.includes('This link expires on 1 December 2026 at 09:00 UTC.'))
    })
  })
})
