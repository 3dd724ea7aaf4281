// Reminders (docs/api.md#reminders): the policy of each creation route and its default (REMINDERS),
// the clock of each signer (random and preserved order), the schedule run by the worker as the
// manual clock moves — mails read from a real SMTP server — and where it stops: a signature, a
// refusal, a cancel, the expiry, max_count. A job run twice sends once.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, post } from '../../test/documents.ts'
import type { ReceivedMail } from '../../test/fixtures/smtp.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import {
  type Created,
  eventsOf,
  everyTypeBody,
  jobsOf,
  refused,
  SIGNATURE,
  signer,
  submitterRow,
} from '../../test/signing.ts'
import { warnAboutConfig } from '../cli/context.ts'
import { reminderJob } from './reminders.ts'

const HOUR = 3_600_000
const POLICY = { first_after_hours: 24, every_hours: 48, max_count: 2 }

describe('reminders', () => {
  let m: MailTestApp
  let templateId: string
  before(async () => {
    // The instance default of this app: first after 72 h, then every 24 h, 3 at most.
    m = await startMailApp({ REMINDERS: '72,24,3' })
    templateId = await createTemplateFor(m.t, m.key)
  })
  after(() => m.close())

  const create = async (extra: Record<string, unknown> = {}): Promise<Created> => {
    const res = await post(m.t, m.key, '/v1/submissions', {
      template_id: templateId,
      submitters: [
        { role: 'first', email: 'first@example.eu', name: 'First' },
        { role: 'second', email: 'second@example.eu', name: 'Second' },
      ],
      reminders: POLICY,
      ...extra,
    })
    assert.equal(res.statusCode, 201, res.body)
    await m.work()
    return res.json()
  }
  const get = (url: string) => m.t.request(m.key, { method: 'GET', url })
  const submitterOf = async (id: string) => (await get(`/v1/submitters/${id}`)).json()
  const reminders = (created: Created, index: number): ReceivedMail[] =>
    m.smtp.received.filter(
      (mail) =>
        mail.subject.startsWith('Reminder:') && mail.text.includes(created.submitters[index]!.signing_url),
    )
  const at = (ms: number) => new Date(ms).toISOString()
  /** Moves the clock to `when` (ms) and runs every job then due. */
  const runAt = async (when: number) => {
    m.t.clock.set(new Date(when))
    await m.work()
  }
  const sign = async (created: Created, index: number) => {
    const values = index === 0 ? { 'First signature': SIGNATURE } : { 'Second signature': SIGNATURE }
    const res = await signer(m.t, created.submitters[index]!, 'sign', { values })
    assert.equal(res.statusCode, 200, res.body)
  }

  it('REMINDER_HOUR_SECONDS at its default: no warning at start', () => {
    warnAboutConfig(m.t.deps)
    assert.equal(m.t.logs.entries().filter((e) => String(e.msg).includes('REMINDER_HOUR_SECONDS')).length, 0)
  })

  describe('the policy', () => {
    it('422 invalid_request naming the field for anything but a policy in bounds or false, on every creation route', async () => {
      const bad: unknown[] = [
        true,
        'off',
        null,
        {},
        { ...POLICY, first_after_hours: 0 },
        { ...POLICY, every_hours: 721 },
        { ...POLICY, max_count: 11 },
        { ...POLICY, max_count: 1.5 },
        { first_after_hours: 24, every_hours: 48 },
        { ...POLICY, extra: 1 },
      ]
      for (const reminders of bad) {
        const res = await post(m.t, m.key, '/v1/submissions', {
          template_id: templateId,
          submitters: [{ role: 'first', email: 'a@example.eu' }],
          reminders,
        })
        refused(res, 422, 'invalid_request', /reminders/)
      }
      const inline = await post(m.t, m.key, '/v1/submissions/from_pdf', {
        ...(await everyTypeBody(['first'])),
        reminders: { ...POLICY, max_count: 0 },
      })
      refused(inline, 422, 'invalid_request', /reminders/)
      for (const route of ['/v1/submissions/from_html', '/v1/submissions/from_docx']) {
        const res = await post(m.t, m.key, route, { reminders: true })
        refused(res, 422, 'invalid_request')
      }
    })

    it('the submission answers its effective policy: the one given, null for false, else REMINDERS', async () => {
      const given = await create()
      assert.deepEqual((await get(`/v1/submissions/${given.id}`)).json().reminders, POLICY)
      const none = await create({ reminders: false })
      assert.equal((await get(`/v1/submissions/${none.id}`)).json().reminders, null)
      const byDefault = await create({ reminders: undefined })
      const answered = (await get(`/v1/submissions/${byDefault.id}`)).json()
      assert.deepEqual(answered.reminders, { first_after_hours: 72, every_hours: 24, max_count: 3 })
      assert.equal(answered.submitters[0].next_reminder_at, at(m.t.clock.epochMs() + 72 * HOUR))
      const inline = await post(m.t, m.key, '/v1/submissions/from_pdf', await everyTypeBody(['first']))
      assert.equal(inline.statusCode, 201, inline.body)
      assert.deepEqual((await get(`/v1/submissions/${inline.json().id}`)).json().reminders, {
        first_after_hours: 72,
        every_hours: 24,
        max_count: 3,
      })
      const listed = (await get('/v1/submissions?limit=100'))
        .json()
        .data.find((s: { id: string }) => s.id === none.id)
      assert.equal(listed.reminders, null)
      assert.equal(listed.submitters[0].reminders_sent, 0)
      assert.equal(listed.submitters[0].next_reminder_at, null)
    })
  })

  describe('the clock', () => {
    it('random order: every signer’s clock starts at creation', async () => {
      const created = await create({ signing_order: 'random' })
      const due = at(m.t.clock.epochMs() + 24 * HOUR)
      for (const s of created.submitters) {
        const answered = await submitterOf(s.id)
        assert.equal(answered.next_reminder_at, due)
        assert.equal(answered.reminders_sent, 0)
      }
    })

    it('preserved order: a later signer’s clock starts only when their turn comes', async () => {
      const created = await create()
      const start = m.t.clock.epochMs()
      assert.equal((await submitterOf(created.submitters[0]!.id)).next_reminder_at, at(start + 24 * HOUR))
      assert.equal((await submitterOf(created.submitters[1]!.id)).next_reminder_at, null)
      m.t.clock.advance(5 * HOUR)
      await sign(created, 0)
      assert.equal((await submitterOf(created.submitters[0]!.id)).next_reminder_at, null)
      assert.equal(
        (await submitterOf(created.submitters[1]!.id)).next_reminder_at,
        at(start + 5 * HOUR + 24 * HOUR),
      )
    })

    it('a signer not sent e-mail has no reminder; a policy past the expiry none either', async () => {
      const silent = await create({ send_email: false })
      assert.equal((await submitterOf(silent.submitters[0]!.id)).next_reminder_at, null)
      const soon = await create({ expires_at: at(m.t.clock.epochMs() + 10 * HOUR) })
      assert.equal((await submitterOf(soon.submitters[0]!.id)).next_reminder_at, null)
      assert.equal(
        (await jobsOf(m.t, reminderJob.kind)).filter((j) => j.payload.submitter_id === soon.submitters[0]!.id)
          .length,
        0,
      )
    })
  })

  describe('the schedule', () => {
    it('mails each reminder at its due time, every every_hours, max_count at most, then stops', async () => {
      const created = await create({ expires_at: at(m.t.clock.epochMs() + 200 * HOUR) })
      const start = m.t.clock.epochMs()
      const first = created.submitters[0]!
      await runAt(start + 24 * HOUR - 1)
      assert.equal(reminders(created, 0).length, 0, 'not a millisecond early')
      await runAt(start + 24 * HOUR)
      const [mail] = reminders(created, 0)
      assert.ok(mail, 'the first reminder')
      assert.deepEqual(mail.envelope.to, ['first@example.eu'])
      assert.equal(mail.subject, 'Reminder: Please sign “NDA”')
      assert.ok(mail.text.includes(first.signing_url), 'the same signing link')
      assert.match(mail.text, /This link expires on /)
      let answered = await submitterOf(first.id)
      assert.equal(answered.reminders_sent, 1)
      assert.equal(answered.next_reminder_at, at(start + 72 * HOUR))
      const [event] = (await eventsOf(m.t, created.id)).filter((e) => e.type === 'submitter.reminded')
      assert.equal(event?.submitter_id, first.id)
      const data = JSON.parse(event!.data)
      assert.deepEqual(
        { ...data, object: undefined },
        { submitter_id: first.id, count: 1, manual: false, object: undefined },
      )
      assert.equal(data.object.submitters[0].reminders_sent, 1)
      assert.equal(reminders(created, 1).length, 0, 'preserved order: the second signer’s turn has not come')

      await runAt(start + 72 * HOUR)
      assert.equal(reminders(created, 0).length, 2)
      answered = await submitterOf(first.id)
      assert.equal(answered.reminders_sent, 2)
      assert.equal(answered.next_reminder_at, null, 'max_count reached')
      await runAt(start + 190 * HOUR)
      assert.equal(reminders(created, 0).length, 2, 'nothing after max_count')
    })

    it('a job run twice (at-least-once) sends one reminder', async () => {
      const created = await create({ signing_order: 'random' })
      const start = m.t.clock.epochMs()
      await runAt(start + 24 * HOUR)
      assert.equal(reminders(created, 1).length, 1)
      const [job] = (await jobsOf(m.t, reminderJob.kind)).filter(
        (j) => j.payload.submitter_id === created.submitters[1]!.id && j.payload.number === 1,
      )
      assert.equal(job?.state, 'done')
      // As if its worker died after the commit and before marking it done: the row runs again.
      await m.t.deps.db
        .updateTable('jobs')
        .set({ state: 'pending', run_at: at(m.t.clock.epochMs()) })
        .where('id', '=', job!.id)
        .execute()
      await m.work()
      assert.equal(reminders(created, 1).length, 1, 'no second mail')
      assert.equal((await submitterOf(created.submitters[1]!.id)).reminders_sent, 1)
    })

    it('stops for good when the signer signs, even with the job still queued', async () => {
      const created = await create({ signing_order: 'random' })
      const start = m.t.clock.epochMs()
      m.t.clock.set(new Date(start + 24 * HOUR - 1000))
      await sign(created, 1)
      assert.equal((await submitterOf(created.submitters[1]!.id)).next_reminder_at, null)
      await runAt(start + 24 * HOUR)
      assert.equal(reminders(created, 1).length, 0, 'signed a second ago: no mail')
      assert.equal(reminders(created, 0).length, 1, 'the other signer is still reminded')
    })

    it('stops when a signer declines, and when the submission is cancelled or expires', async () => {
      const declined = await create({ signing_order: 'random' })
      const cancelled = await create({ signing_order: 'random' })
      const expiring = await create({
        signing_order: 'random',
        expires_at: at(m.t.clock.epochMs() + 30 * HOUR),
      })
      const start = m.t.clock.epochMs()
      const refusal = await signer(m.t, declined.submitters[0]!, 'decline', { reason: 'No.' })
      assert.equal(refusal.statusCode, 200, refusal.body)
      const cancel = await m.t.request(m.key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
      assert.equal(cancel.statusCode, 200, cancel.body)
      for (const s of [...declined.submitters, ...cancelled.submitters])
        assert.equal((await submitterRow(m.t, s.id)).next_reminder_at, null)
      await runAt(start + 24 * HOUR)
      assert.equal(reminders(declined, 0).length + reminders(declined, 1).length, 0)
      assert.equal(reminders(cancelled, 0).length + reminders(cancelled, 1).length, 0)
      assert.equal(reminders(expiring, 0).length, 1, 'reminded before its expiry')
      assert.equal(
        (await submitterOf(expiring.submitters[0]!.id)).next_reminder_at,
        null,
        'the next would come after it',
      )
      // The expiry sweep (a periodic task) ends it; nothing is sent afterwards.
      m.t.clock.set(new Date(start + 31 * HOUR))
      const { expireDueSubmissions } = await import('./expire-submissions.ts')
      await expireDueSubmissions(m.t.deps)
      const remind = await m.t.request(m.key, {
        method: 'POST',
        url: `/v1/submitters/${expiring.submitters[0]!.id}/remind`,
      })
      refused(remind, 409, 'submission_already_finalized')
    })
  })
})
