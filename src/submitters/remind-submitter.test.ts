// POST /v1/submitters/{id}/remind (docs/api.md#reminders): a reminder mailed at once and read from a
// real SMTP server, counted and journaled without moving the automatic schedule; the refusals; the
// one-an-hour limit with Retry-After (a policy hour, REMINDER_HOUR_SECONDS); the event delivered to
// a real webhook receiver; and the reminder in both audit trails.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, post } from '../../test/documents.ts'
import { pdfText } from '../../test/fixtures/poppler.ts'
import type { ReceivedMail } from '../../test/fixtures/smtp.ts'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { type Created, eventsOf, refused, SIGNATURE, signer } from '../../test/signing.ts'
import { warnAboutConfig } from '../cli/context.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { WebhookDispatcher } from '../webhooks/dispatcher.ts'

// One policy hour lasts 60 s in this app: the limit and the schedule are counted in those.
const HOUR = 60_000
const POLICY = { first_after_hours: 24, every_hours: 24, max_count: 3 }

describe('remind a signer (POST /v1/submitters/:id/remind)', () => {
  let m: MailTestApp
  let templateId: string
  let receiver: WebhookReceiver
  let dispatcher: WebhookDispatcher
  before(async () => {
    m = await startMailApp({ REMINDER_HOUR_SECONDS: '60', ALLOW_PRIVATE_NETWORK_URLS: 'true' })
    templateId = await createTemplateFor(m.t, m.key)
    receiver = await WebhookReceiver.start()
    dispatcher = new WebhookDispatcher(m.t.deps)
  })
  after(async () => {
    closePdfFinalizer()
    await m.close()
    await receiver.close()
  })

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
  const remind = (id: string, key = m.key) =>
    m.t.request(key, { method: 'POST', url: `/v1/submitters/${id}/remind` })
  const reminders = (created: Created, index: number): ReceivedMail[] =>
    m.smtp.received.filter(
      (mail) =>
        mail.subject.startsWith('Reminder:') && mail.text.includes(created.submitters[index]!.signing_url),
    )
  const sign = async (created: Created, index: number) => {
    const values = index === 0 ? { 'First signature': SIGNATURE } : { 'Second signature': SIGNATURE }
    const res = await signer(m.t, created.submitters[index]!, 'sign', { values })
    assert.equal(res.statusCode, 200, res.body)
  }

  it('REMINDER_HOUR_SECONDS changed is a warning at start', () => {
    warnAboutConfig(m.t.deps)
    const warned = m.t.logs.entries().filter((e) => String(e.msg).startsWith('REMINDER_HOUR_SECONDS=60:'))
    assert.equal(warned.length, 1)
    assert.equal(warned[0]!.level, 40)
  })

  describe('happy', () => {
    it('200 with the submitter: one reminder mailed now, counted, journaled as manual, the schedule unmoved', async () => {
      const created = await create()
      const first = created.submitters[0]!
      const before = (await m.t.request(m.key, { method: 'GET', url: `/v1/submitters/${first.id}` })).json()
      const res = await remind(first.id)
      assert.equal(res.statusCode, 200, res.body)
      const answered = res.json()
      assert.deepEqual({ ...answered, reminders_sent: 0, updated_at: before.updated_at }, before)
      assert.equal(answered.reminders_sent, 1)
      assert.equal(answered.next_reminder_at, before.next_reminder_at, 'the automatic schedule is unmoved')
      await m.work()
      const [mail] = reminders(created, 0)
      assert.equal(mail?.subject, 'Reminder: Please sign “NDA”')
      assert.deepEqual(mail?.envelope.to, ['first@example.eu'])
      const event = (await eventsOf(m.t, created.id)).find((e) => e.type === 'submitter.reminded')
      const { object, ...data } = JSON.parse(event!.data)
      assert.deepEqual(data, { submitter_id: first.id, count: 1, manual: true })
      assert.equal(object.id, created.id)

      // The automatic one still comes at its time, and counts on.
      m.t.clock.set(new Date(before.next_reminder_at))
      await m.work()
      assert.equal(reminders(created, 0).length, 2)
      const after = (await m.t.request(m.key, { method: 'GET', url: `/v1/submitters/${first.id}` })).json()
      assert.equal(after.reminders_sent, 2)
      assert.equal(
        after.next_reminder_at,
        new Date(Date.parse(before.next_reminder_at) + 24 * HOUR).toISOString(),
      )
      const counts = (await eventsOf(m.t, created.id))
        .filter((e) => e.type === 'submitter.reminded')
        .map((e) => JSON.parse(e.data))
        .map(({ count, manual }) => ({ count, manual }))
      assert.deepEqual(counts, [
        { count: 1, manual: true },
        { count: 2, manual: false },
      ])
    })

    it('under random order any signer still to sign; under preserved order the next one once the first signed', async () => {
      const random = await create({ signing_order: 'random' })
      assert.equal((await remind(random.submitters[1]!.id)).statusCode, 200)
      const preserved = await create()
      await sign(preserved, 0)
      assert.equal((await remind(preserved.submitters[1]!.id)).statusCode, 200)
    })

    it('works on a submission whose policy is off', async () => {
      const created = await create({ reminders: false })
      const res = await remind(created.submitters[0]!.id)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().next_reminder_at, null)
    })
  })

  describe('errors', () => {
    it('409 submitter_already_finalized for a signer who signed, declined or was pre-signed', async () => {
      const created = await create({ signing_order: 'random' })
      await sign(created, 0)
      refused(await remind(created.submitters[0]!.id), 409, 'submitter_already_finalized', /signed/)
      const declined = await create({ signing_order: 'random' })
      const no = await signer(m.t, declined.submitters[0]!, 'decline', { reason: 'Not for me.' })
      assert.equal(no.statusCode, 200, no.body)
      refused(await remind(declined.submitters[0]!.id), 409, 'submitter_already_finalized', /declined/)
      const res = await post(m.t, m.key, '/v1/submissions', {
        template_id: templateId,
        submitters: [
          {
            role: 'first',
            email: 'first@example.eu',
            completed: true,
            fields: { 'First signature': SIGNATURE },
          },
          { role: 'second', email: 'second@example.eu' },
        ],
      })
      assert.equal(res.statusCode, 201, res.body)
      refused(await remind(res.json().submitters[0].id), 409, 'submitter_already_finalized', /pre-signed/)
    })

    it('409 not_your_turn for a later signer under preserved order', async () => {
      const created = await create()
      refused(await remind(created.submitters[1]!.id), 409, 'not_your_turn', /turn/)
    })

    it('409 submission_already_finalized once the submission is cancelled or past its expiry', async () => {
      const created = await create({ signing_order: 'random' })
      await m.t.request(m.key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      refused(await remind(created.submitters[0]!.id), 409, 'submission_already_finalized', /cancelled/)
      const lapsing = await create({ expires_at: new Date(m.t.clock.epochMs() + 10 * HOUR).toISOString() })
      m.t.clock.advance(10 * HOUR)
      refused(await remind(lapsing.submitters[0]!.id), 409, 'submission_already_finalized', /expired/)
    })

    it('409 submitter_not_yet_requested for a signer not sent e-mail', async () => {
      const created = await create({ send_email: false })
      refused(await remind(created.submitters[0]!.id), 409, 'submitter_not_yet_requested', /send_email/)
    })

    it('404 resource_not_found for an unknown signer or another account’s', async () => {
      const created = await create()
      refused(await remind('sbm_000000000000000000000000'), 404, 'resource_not_found')
      const other = await m.t.account()
      refused(await remind(created.submitters[0]!.id, other.testKey), 404, 'resource_not_found')
    })

    it('429 reminder_too_soon with Retry-After within an hour of the last reminder, manual or automatic', async () => {
      const created = await create({ signing_order: 'random' })
      const first = created.submitters[0]!
      assert.equal((await remind(first.id)).statusCode, 200)
      m.t.clock.advance(HOUR - 42_000)
      const again = await remind(first.id)
      refused(again, 429, 'reminder_too_soon', /less than an hour ago/)
      assert.equal(again.headers['retry-after'], '42')
      assert.equal(JSON.parse(again.body).error.type, 'rate_limit_error')
      m.t.clock.advance(42_000)
      assert.equal((await remind(first.id)).statusCode, 200, 'an hour later')

      // The automatic reminder of the second signer counts too.
      const second = created.submitters[1]!
      const due = (await m.t.request(m.key, { method: 'GET', url: `/v1/submitters/${second.id}` })).json()
      m.t.clock.set(new Date(due.next_reminder_at))
      await m.work()
      assert.equal(reminders(created, 1).length, 1)
      m.t.clock.advance(30 * 1000)
      const soon = await remind(second.id)
      refused(soon, 429, 'reminder_too_soon')
      assert.equal(soon.headers['retry-after'], '30')
    })
  })

  describe('the event', () => {
    it('submitter.reminded is delivered to a subscribed endpoint with the submission and the reminder', async () => {
      const other = await m.t.account()
      const endpoint = await m.t.request(other.testKey, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        payload: { url: receiver.url(), events: ['submitter.reminded'] },
      })
      assert.equal(endpoint.statusCode, 201, endpoint.body)
      const tpl = await createTemplateFor(m.t, other.testKey)
      const res = await post(m.t, other.testKey, '/v1/submissions', {
        template_id: tpl,
        submitters: [
          { role: 'first', email: 'first@example.eu' },
          { role: 'second', email: 'second@example.eu' },
        ],
      })
      assert.equal(res.statusCode, 201, res.body)
      const id = res.json().submitters[0].id
      assert.equal((await remind(id, other.testKey)).statusCode, 200)
      await m.work()
      await dispatcher.drain()
      await receiver.waitFor(1)
      assert.equal(receiver.received.length, 1, 'only the subscribed type')
      const body = JSON.parse(receiver.received[0]!.body)
      assert.equal(body.type, 'submitter.reminded')
      assert.equal(body.data.submitter_id, id)
      assert.equal(body.data.count, 1)
      assert.equal(body.data.manual, true)
      assert.equal(body.data.object.id, res.json().id)
      assert.equal(body.data.object.submitters[0].reminders_sent, 1)
    })

    it('in both audit trails: the JSON and the PDF say which reminder and how', async () => {
      const created = await create({ signing_order: 'random' })
      assert.equal((await remind(created.submitters[0]!.id)).statusCode, 200)
      await sign(created, 0)
      await sign(created, 1)
      await m.work()
      const json = (
        await m.t.request(m.key, { method: 'GET', url: `/v1/submissions/${created.id}/audit_log.json` })
      ).json()
      const event = json.events.find((e: { type: string }) => e.type === 'submitter.reminded')
      assert.equal(event.description, 'Reminder to sign e-mailed to First (first@example.eu).')
      assert.equal(event.details, 'Reminder 1, sent at the sender’s request')
      const pdf = (
        await m.t.request(m.key, { method: 'GET', url: `/v1/submissions/${created.id}/audit_log` })
      ).rawPayload
      const text = (await pdfText(pdf)).replace(/\s+/g, ' ')
      assert.ok(text.includes('Reminder to sign e-mailed to First (first@example.eu).'), text)
      assert.ok(text.includes('Reminder 1, sent at the sender’s request'), text)
    })
  })
})
