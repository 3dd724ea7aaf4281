// The `mail.send` job against a real SMTP server on loopback: what the server receives, and what
// happens when it is down, refuses for now (4xx) or for good (5xx), or when a worker dies between
// the server's acceptance and the job's record. Time moves with the app's clock, never by sleeping.
import assert from 'node:assert/strict'
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { AddressObject } from 'mailparser'
import { fromPdfBody, post } from '../../test/documents.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { jobsOf } from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { claimJob, completeJob, enqueue } from '../jobs/job-store.ts'
import { drainJobs } from '../jobs/worker.ts'
import { MAIL_RETRY_SCHEDULE, type MailMessage, mailJob } from './mail-job.ts'

const MAIL_FROM = 'Acme Contracts <contracts@acme.example>'

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value)

describe('mail.send through SMTP (SMTP_URL)', () => {
  let m: MailTestApp
  before(async () => {
    m = await startMailApp({ MAIL_FROM })
  })
  after(() => m.close())

  /** Creates a one-signer submission whose signer is `email`; returns its id, signing URL and mail job. */
  async function requestTo(email: string, extra: Record<string, unknown> = {}) {
    const res = await post(
      m.t,
      m.key,
      '/v1/submissions/from_pdf',
      await fromPdfBody({ submitters: [{ role: 'signer', email, name: 'Ann' }], ...extra }),
    )
    assert.equal(res.statusCode, 201, res.body)
    const { id, submitters } = res.json()
    const [job] = (await jobsOf(m.t, mailJob.kind)).filter(
      (j) => j.payload.submission_id === id && j.payload.kind === 'signing_request',
    )
    assert.ok(job, 'a mail job is queued with the submission')
    return { id, url: submitters[0].signing_url as string, jobId: job.id }
  }
  const job = async (id: string) => (await jobsOf(m.t, mailJob.kind)).find((j) => j.id === id)!
  const logged = (msg: string) => m.t.logs.entries().filter((e) => e.msg === msg)

  describe('happy', () => {
    it('hands over MAIL_FROM, the named recipient, Reply-To, text and HTML, the Message-ID of the job; the bcc gets a mail of its own', async () => {
      const { url, jobId } = await requestTo('ann@example.eu', {
        reply_to: 'sales@acme.example',
        bcc_email: 'archive@acme.example',
      })
      await m.work()
      const [mail, ...more] = m.smtp.to('ann@example.eu')
      assert.ok(mail)
      assert.equal(more.length, 0)
      // The bcc is never a recipient of the signer's mail, whose link is a credential.
      assert.deepEqual(mail.envelope, { from: 'contracts@acme.example', to: ['ann@example.eu'] })
      const [copy, ...moreCopies] = m.smtp.to('archive@acme.example')
      assert.deepEqual([copy?.envelope.to, moreCopies.length], [['archive@acme.example'], 0])
      assert.ok(!copy!.text.includes(url) && !copy!.html.includes(url), 'the copy holds no signing link')
      assert.deepEqual(addresses(mail.parsed.from), [
        { address: 'contracts@acme.example', name: 'Acme Contracts' },
      ])
      assert.deepEqual(addresses(mail.parsed.to), [{ address: 'ann@example.eu', name: 'Ann' }])
      assert.deepEqual(addresses(mail.parsed.replyTo), [{ address: 'sales@acme.example', name: '' }])
      assert.equal(mail.parsed.bcc, undefined, 'the bcc is never shown to the signer')
      assert.equal(mail.messageId, `<${jobId}@acme.example>`)
      assert.equal(mail.parsed.headers.get('auto-submitted'), 'auto-generated')
      assert.equal(mail.subject, 'Please sign “Contract”')
      assert.ok(mail.text.includes(url), mail.text)
      assert.ok(mail.html.includes(`href="${url}"`), mail.html)
      assert.equal((await job(jobId)).state, 'done')
    })

    it('sends a message queued without HTML (the 2FA code mail) as plain text', async () => {
      const message: MailMessage = {
        to: 'code@example.eu',
        bcc: null,
        reply_to: null,
        subject: 'Your code',
        text: 'Your code is 123456.',
        submission_id: 'sub_x',
        submitter_id: 'sbm_x',
      }
      await m.t.deps.db.transaction().execute((tx) => enqueue(tx, m.t.deps, mailJob, message))
      await m.work()
      const [mail] = m.smtp.to('code@example.eu')
      assert.ok(mail)
      assert.equal(mail.text.trim(), 'Your code is 123456.')
      assert.equal(mail.html, '')
      assert.equal((mail.parsed.headers.get('content-type') as { value: string }).value, 'text/plain')
    })
  })

  describe('failures', () => {
    it('SMTP down: the job fails and waits 10 s; back up and the clock moved, it is delivered exactly once', async () => {
      await m.smtp.stop()
      const { jobId } = await requestTo('outage@example.eu')
      await m.work()
      const failed = await job(jobId)
      assert.equal(failed.state, 'pending')
      assert.equal(failed.attempt, 1)
      assert.match(failed.last_error ?? '', /^ESOCKET: connect ECONNREFUSED/)
      const retryAt = new Date(m.t.clock.now().getTime() + MAIL_RETRY_SCHEDULE[0]! * 1000).toISOString()
      assert.equal(failed.run_at, retryAt)

      await m.smtp.listen()
      await m.work()
      assert.equal(m.smtp.to('outage@example.eu').length, 0, 'not retried before its time')
      m.t.clock.advance(MAIL_RETRY_SCHEDULE[0]! * 1000)
      await m.work()
      await m.work()
      assert.equal(m.smtp.to('outage@example.eu').length, 1)
      assert.equal((await job(jobId)).state, 'done')
      assert.ok(logged('job failed; will retry').some((e) => e.job_id === jobId))
    })

    it('a 4xx refusal is retried on the schedule (10 s, then 60 s) and delivered once accepted', async () => {
      m.smtp.refuse = (to) => (to === 'grey@example.eu' ? { code: 451, message: '4.7.1 Greylisted' } : null)
      try {
        const { jobId } = await requestTo('grey@example.eu')
        await m.work()
        assert.match((await job(jobId)).last_error ?? '', /^EENVELOPE: .*451 4\.7\.1 Greylisted/)
        m.t.clock.advance(10_000)
        await m.work()
        const second = await job(jobId)
        assert.deepEqual([second.state, second.attempt], ['pending', 2])
        assert.equal(second.run_at, new Date(m.t.clock.now().getTime() + 60_000).toISOString())
        m.smtp.refuse = () => null
        m.t.clock.advance(60_000)
        await m.work()
        assert.equal(m.smtp.to('grey@example.eu').length, 1)
        assert.deepEqual([(await job(jobId)).state, (await job(jobId)).attempt], ['done', 3])
      } finally {
        m.smtp.refuse = () => null
      }
    })

    it('a permanent 5xx refusal: the job is dead at once, logged at error level with the reply, never retried', async () => {
      m.smtp.refuse = (to) => (to === 'gone@example.eu' ? { code: 550, message: '5.1.1 No such user' } : null)
      try {
        const { id, jobId } = await requestTo('gone@example.eu')
        await m.work()
        const dead = await job(jobId)
        assert.deepEqual([dead.state, dead.attempt], ['dead', 1])
        assert.match(dead.last_error ?? '', /550 5\.1\.1 No such user/)
        const [line] = logged('mail rejected permanently by the SMTP server; it will not be retried')
        assert.equal(line?.level, 50)
        assert.equal(line?.to, 'gone@example.eu')
        assert.equal(line?.submission_id, id)
        assert.match(String(line?.smtp_response), /^550 5\.1\.1 No such user/)
        m.smtp.refuse = () => null
        m.t.clock.advance(3 * 24 * 3600 * 1000)
        assert.equal(await m.work(), 0)
        assert.equal((await job(jobId)).attempt, 1)
        assert.equal(m.smtp.to('gone@example.eu').length, 0)
      } finally {
        m.smtp.refuse = () => null
      }
    })

    it('the bcc refused for good: the signer got the mail, their job is done, the copy is dead and logged', async () => {
      m.smtp.refuse = (to) =>
        to === 'old-archive@acme.example' ? { code: 550, message: 'No such user' } : null
      try {
        const { id, jobId } = await requestTo('kept@example.eu', { bcc_email: 'old-archive@acme.example' })
        await m.work()
        assert.equal(m.smtp.to('kept@example.eu').length, 1)
        assert.equal((await job(jobId)).state, 'done')
        // The bcc's notice is a job of its own.
        const copy = (await jobsOf(m.t, mailJob.kind)).find(
          (j) => j.payload.submission_id === id && j.payload.kind === 'signing_request_copy',
        )
        assert.deepEqual([copy?.state, copy?.attempt], ['dead', 1])
        const lines = logged('mail rejected permanently by the SMTP server; it will not be retried')
        assert.ok(lines.some((line) => line.to === 'old-archive@acme.example' && line.submission_id === id))
      } finally {
        m.smtp.refuse = () => null
      }
    })

    it('a worker dying after the server took the mail: the next attempt sends one copy with the same Message-ID', async () => {
      const { jobId } = await requestTo('twice@example.eu')
      // A worker claims the job and delivers, then dies before recording it (no completeJob).
      for (;;) {
        const claimed = await claimJob(m.t.deps.db, m.t.deps.engine, m.t.clock, 60_000)
        assert.ok(claimed, 'the mail job is claimed')
        if (claimed.id !== jobId) {
          await completeJob(m.t.deps.db, m.t.clock, claimed)
          continue
        }
        await mailJob.handle(claimed.payload as MailMessage, claimed, m.t.deps)
        break
      }
      assert.equal(m.smtp.to('twice@example.eu').length, 1)
      m.t.clock.advance(61_000)
      await m.work()
      const copies = m.smtp.to('twice@example.eu')
      assert.equal(copies.length, 2)
      assert.deepEqual(
        copies.map((c) => c.messageId),
        [`<${jobId}@acme.example>`, `<${jobId}@acme.example>`],
      )
      assert.deepEqual([(await job(jobId)).state, (await job(jobId)).attempt], ['done', 2])
    })
  })
})

describe('mail.send to a server that never answers', () => {
  let silent: Server
  const sockets: Socket[] = []
  let t: TestApp
  before(async () => {
    // Accepts connections and says nothing: the greeting times out (shortened through the URL).
    silent = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    t = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}?greetingTimeout=300` } })
  })
  after(async () => {
    await t.close()
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
  })

  it('a timeout is transient: the job waits for its retry', async () => {
    const key = (await t.account()).testKey
    const res = await post(t, key, '/v1/submissions/from_pdf', await fromPdfBody())
    assert.equal(res.statusCode, 201, res.body)
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    const [mail] = (await jobsOf(t, mailJob.kind)).filter((j) => j.payload.submission_id === res.json().id)
    assert.deepEqual([mail?.state, mail?.attempt], ['pending', 1])
    assert.equal(mail?.last_error, 'ETIMEDOUT: Greeting never received')
    assert.equal(mail?.run_at, new Date(t.clock.now().getTime() + 10_000).toISOString())
  })
})

describe('mail.send without SMTP_URL: the outbox', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('keeps the rendered message in the job row and logs it', async () => {
    const key = (await t.account()).testKey
    const res = await post(t, key, '/v1/submissions/from_pdf', await fromPdfBody())
    assert.equal(res.statusCode, 201, res.body)
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    const [mail] = (await jobsOf(t, mailJob.kind)).filter((j) => j.payload.submission_id === res.json().id)
    assert.equal(mail?.state, 'done')
    const payload = mail.payload as unknown as MailMessage
    assert.equal(payload.kind, 'signing_request')
    assert.ok(payload.text.includes(res.json().submitters[0].signing_url))
    assert.match(payload.html ?? '', /^<!DOCTYPE html>/)
    const line = t.logs.entries().find((e) => e.msg === 'mail kept in the outbox (no SMTP_URL)')
    assert.equal(line?.to, 'ann@example.eu')
    assert.equal(line?.message_id, `<${mail.id}@localhost>`)
  })
})
