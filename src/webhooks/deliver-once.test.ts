// Deliveries against real receivers on loopback: what is sent (body of api-v1 §6.3, signature,
// headers), each kind of answer and failure, the retry schedule with the same event, the failing
// flag and the owner's one e-mail, event subsets, and the SSRF check at connect time.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { createTemplateFor, post } from '../../test/documents.ts'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf, startTestApp } from '../../test/harness.ts'
import { attemptsOf, deliveries, type HookApp, OWNER_EMAIL, startHookApp } from '../../test/webhooks.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { MAIL_JOB } from '../mail/mail-job.ts'
import { WebhookDispatcher } from './dispatcher.ts'

const SCHEDULE = [0, 30, 300, 1800, 7200, 21600, 86400, 259200]

function parseSignature(header: string | string[] | undefined) {
  assert.equal(typeof header, 'string')
  const parts = (header as string).split(',')
  assert.match(header as string, /^t=\d+(,v1=[0-9a-f]{64})+$/)
  return { t: Number(parts[0]!.slice(2)), v1: parts.slice(1).map((p) => p.slice(3)) }
}

const hmac = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')

describe('webhook deliveries', () => {
  let h: HookApp
  let receiver: WebhookReceiver

  before(async () => {
    h = await startHookApp({ webhookTimeoutMs: 1000 })
  })
  after(() => h.close())
  beforeEach(async () => {
    receiver = await WebhookReceiver.start()
  })
  afterEach(() => receiver.close())

  /** A fresh account (own endpoints, own deliveries) for one test. */
  async function fresh(url = receiver.url(), events?: string[]) {
    const account = await h.t.account()
    const endpoint = await h.endpoint(url, events, account.testKey)
    return { key: account.testKey, endpoint }
  }
  const deliveriesTo = async (endpointId: string) =>
    (await deliveries(h.t)).filter((d) => d.endpoint_id === endpointId)

  describe('happy', () => {
    it('POSTs the §6.3 body, signed, with JSON and Paraph user agent; the delivery is delivered', async () => {
      const { key, endpoint } = await fresh()
      const subId = await h.submission(key)
      await h.work()
      assert.equal(receiver.received.length, 1)
      const hook = receiver.received[0]!
      assert.equal(hook.method, 'POST')
      assert.equal(hook.path, '/hook')
      assert.equal(hook.headers['content-type'], 'application/json')
      assert.match(String(hook.headers['user-agent']), /^Paraph-Webhooks\//)
      const { t, v1 } = parseSignature(hook.headers['paraph-signature'])
      assert.equal(t, Math.floor(h.t.clock.epochMs() / 1000))
      assert.deepEqual(v1, [hmac(endpoint.secret, t, hook.body)])
      const body = JSON.parse(hook.body)
      assert.deepEqual(Object.keys(body), ['id', 'type', 'created_at', 'data'])
      assert.match(body.id, /^evt_[0-9A-Za-z]{24}$/)
      assert.equal(body.type, 'submission.created')
      assert.match(body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.deepEqual(Object.keys(body.data), ['object'])
      const object = body.data.object
      assert.deepEqual(Object.keys(object).sort(), [
        'audit_log_url',
        'completed_at',
        'id',
        'metadata',
        'status',
        'submitters',
        'template_id',
      ])
      assert.equal(object.id, subId)
      assert.equal(object.status, 'created')
      assert.deepEqual(
        object.submitters.map((s: { email: string; status: string }) => [s.email, s.status]),
        [
          ['ann@example.eu', 'pending'],
          ['bob@example.eu', 'pending'],
        ],
      )
      // The journal's event is the one delivered.
      const journal = await h.t.request(key, { method: 'GET', url: `/v1/events?submission_id=${subId}` })
      assert.equal(journal.json().data[0].id, body.id)
      const [delivery] = await deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      assert.equal(delivery?.event_id, body.id)
      assert.equal(delivery?.body, hook.body)
      const health = (
        await h.t.request(key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      ).json().health
      assert.equal(health.last_success_status, 200)
      assert.equal(health.consecutive_failures, 0)
    })

    it('data.object is the submission as it was at the event, not as it is at delivery', async () => {
      const { key, endpoint } = await fresh()
      const subId = await h.submission(key)
      const cancel = await h.t.request(key, { method: 'DELETE', url: `/v1/submissions/${subId}` })
      assert.equal(cancel.statusCode, 200)
      await h.work()
      const bodies = receiver.received.map((r) => JSON.parse(r.body))
      const byType = Object.fromEntries(bodies.map((b) => [b.type, b.data.object.status]))
      assert.deepEqual(byType, { 'submission.created': 'created', 'submission.cancelled': 'cancelled' })
      assert.equal((await deliveriesTo(endpoint.id)).length, 2)
    })

    it('each endpoint gets only its own subset of events', async () => {
      const account = await h.t.account()
      const other = await WebhookReceiver.start()
      try {
        await h.endpoint(receiver.url('/created'), ['submission.created'], account.testKey)
        await h.endpoint(
          other.url('/cancelled'),
          ['submission.cancelled', 'submission.completed'],
          account.testKey,
        )
        const subId = await h.submission(account.testKey)
        await h.t.request(account.testKey, { method: 'DELETE', url: `/v1/submissions/${subId}` })
        await h.work()
        assert.deepEqual(
          receiver.received.map((r) => JSON.parse(r.body).type),
          ['submission.created'],
        )
        assert.deepEqual(
          other.received.map((r) => JSON.parse(r.body).type),
          ['submission.cancelled'],
        )
      } finally {
        await other.close()
      }
    })

    it('a slow answer within the deadline is delivered', async () => {
      const { key, endpoint } = await fresh()
      receiver.otherwise = (_req, res) => {
        setTimeout(() => res.writeHead(204).end(), 200)
      }
      await h.submission(key)
      await h.work()
      const [delivery] = await deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      const [attempt] = await attemptsOf(h.t, delivery!.id)
      assert.equal(attempt?.status, 204)
      assert.ok(attempt!.duration_ms >= 150, String(attempt?.duration_ms))
    })

    it('a huge 2xx answer is delivered; only its first 64 KB are kept', async () => {
      const { key, endpoint } = await fresh()
      receiver.otherwise = answers.huge(5 * 1024 * 1024)
      await h.submission(key)
      await h.work()
      const [delivery] = await deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      const [attempt] = await attemptsOf(h.t, delivery!.id)
      assert.equal(attempt?.response_body?.length, 64 * 1024)
    })
  })

  describe('failures and retries', () => {
    it('500 then 200: retried 30 s after the event with the same id and bytes and a fresh t', async () => {
      const { key, endpoint } = await fresh()
      receiver.queue.push(answers.status(500, 'boom'))
      await h.submission(key)
      await h.work()
      assert.equal(receiver.received.length, 1)
      const [pending] = await deliveriesTo(endpoint.id)
      assert.equal(pending?.state, 'pending')
      assert.equal(pending?.last_status, 500)
      assert.equal(pending?.last_error, 'HTTP 500')
      assert.equal(Date.parse(pending!.next_attempt_at) - Date.parse(pending!.event_created_at), 30_000)
      h.t.clock.advance(29_000)
      await h.work()
      assert.equal(receiver.received.length, 1, 'not before its time')
      h.t.clock.advance(1_000)
      await h.work()
      assert.equal(receiver.received.length, 2)
      const [first, second] = receiver.received
      assert.equal(second?.body, first?.body)
      const t1 = parseSignature(first?.headers['paraph-signature']).t
      const t2 = parseSignature(second?.headers['paraph-signature']).t
      assert.equal(t2 - t1, 30)
      assert.deepEqual(parseSignature(second?.headers['paraph-signature']).v1, [
        hmac(endpoint.secret, t2, second!.body),
      ])
      const [done] = await deliveriesTo(endpoint.id)
      assert.equal(done?.state, 'delivered')
      const attempts = await attemptsOf(h.t, done!.id)
      assert.deepEqual(
        attempts.map((a) => [a.number, a.status, a.succeeded, a.response_body]),
        [
          [1, 500, 0, 'boom'],
          [2, 200, 1, 'ok'],
        ],
      )
    })

    it('a timeout, a connection reset and a redirect are failures; the redirect is not followed', async () => {
      const { key, endpoint } = await fresh()
      receiver.queue.push(answers.hang(), answers.reset(), answers.redirect(receiver.url('/elsewhere')))
      await h.submission(key)
      await h.work()
      h.t.clock.advance(30_000)
      await h.work()
      h.t.clock.advance(270_000)
      await h.work()
      const [delivery] = await deliveriesTo(endpoint.id)
      const attempts = await attemptsOf(h.t, delivery!.id)
      assert.equal(attempts.length, 3)
      assert.match(attempts[0]!.error ?? '', /no complete response from 127\.0\.0\.1 within 1 s/)
      assert.equal(attempts[0]!.status, null)
      assert.match(attempts[1]!.error ?? '', /broke off|ECONNRESET/)
      assert.equal(attempts[2]!.status, 302)
      assert.equal(attempts[2]!.error, 'HTTP 302: redirects are not followed')
      assert.deepEqual(
        receiver.received.map((r) => r.path),
        ['/hook', '/hook', '/hook'],
      )
      assert.equal(delivery?.state, 'pending')
    })

    it('follows the schedule with the same event to the 8th attempt, then fails; failing and one e-mail to the owner', async () => {
      const account = await h.t.account()
      await h.t.deps.db
        .updateTable('accounts')
        .set({ owner_email: OWNER_EMAIL })
        .where('id', '=', account.accountId)
        .execute()
      const endpoint = await h.endpoint(receiver.url(), ['submission.created'], account.testKey)
      receiver.otherwise = answers.status(503)
      await h.submission(account.testKey)
      const start = h.t.clock.epochMs()
      const mails = () =>
        h.t.deps.db.selectFrom('jobs').select('payload').where('kind', '=', MAIL_JOB).execute()
      const before = (await mails()).length
      for (const [i, offset] of SCHEDULE.entries()) {
        h.t.clock.set(new Date(start + offset * 1000))
        await h.work()
        assert.equal(receiver.received.length, i + 1, `attempt ${i + 1}`)
      }
      h.t.clock.advance(10 * 86_400_000)
      await h.work()
      assert.equal(receiver.received.length, 8, 'nothing after the last attempt')
      const ts = receiver.received.map(
        (r) => parseSignature(r.headers['paraph-signature']).t - Math.floor(start / 1000),
      )
      assert.deepEqual(ts, SCHEDULE)
      assert.equal(new Set(receiver.received.map((r) => JSON.parse(r.body).id)).size, 1)
      const [delivery] = await deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'failed')
      assert.equal(delivery?.attempts, 8)
      const got = (
        await h.t.request(account.testKey, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      ).json()
      assert.equal(got.health.failing, true)
      assert.equal(got.health.consecutive_failures, 8)
      assert.equal(got.health.last_failure_reason, 'HTTP 503')
      const notices = (await mails())
        .slice(before)
        .map((m) => JSON.parse(m.payload))
        .filter((m) => m.webhook_endpoint_id === endpoint.id)
      assert.equal(notices.length, 1)
      assert.equal(notices[0].to, OWNER_EMAIL)
      assert.match(notices[0].subject, /Webhook endpoint failing/)
      assert.match(notices[0].text, /HTTP 503/)
      // More failures on a failing endpoint send no second mail.
      await h.submission(account.testKey)
      await h.work()
      const after = (await mails())
        .map((m) => JSON.parse(m.payload))
        .filter((m) => m.webhook_endpoint_id === endpoint.id)
      assert.equal(after.length, 1)
    })

    it('disabled 7 days into a failing run: pending deliveries dropped, nothing more is sent', async () => {
      const { key, endpoint } = await fresh(receiver.url(), ['submission.created', 'submission.cancelled'])
      receiver.otherwise = answers.status(500)
      const subId = await h.submission(key)
      const start = h.t.clock.epochMs()
      for (const offset of SCHEDULE) {
        h.t.clock.set(new Date(start + offset * 1000))
        await h.work()
      }
      // A new event a little past 7 days after the first failure: its first attempt disables.
      h.t.clock.set(new Date(start + 7 * 86_400_000))
      await h.t.request(key, { method: 'DELETE', url: `/v1/submissions/${subId}` })
      await h.work()
      const got = (
        await h.t.request(key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      ).json()
      assert.equal(got.health.disabled, true)
      const sent = receiver.received.length
      const rows = await deliveriesTo(endpoint.id)
      assert.ok(rows.every((d) => d.state !== 'pending'))
      const sub2 = await h.submission(key)
      assert.ok(sub2)
      await h.work()
      assert.equal(receiver.received.length, sent, 'a disabled endpoint receives nothing')
      assert.equal((await deliveriesTo(endpoint.id)).length, rows.length, 'and gets no new deliveries')
    })
  })

  describe('security: the SSRF check at connect time (ALLOW_PRIVATE_NETWORK_URLS off)', () => {
    it('a name that resolved to a public address at creation and to loopback now is refused at delivery', async () => {
      const dns: Record<string, string> = { 'hooks.example.eu': '93.184.216.34' }
      const t = await startTestApp({
        webhookTimeoutMs: 1000,
        resolve: async (host) => [{ address: dns[host] ?? '0.0.0.0', family: 4 }],
      })
      try {
        const k = (await t.account()).testKey
        const created = await t.request(k, {
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: { url: `https://hooks.example.eu:${receiver.port}/hook`, events: ['submission.created'] },
        })
        assert.equal(created.statusCode, 201, created.body)
        const refused = await t.request(k, {
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: { url: receiver.url(), events: ['submission.created'] },
        })
        assert.equal(errorOf(refused).code, 'webhook_url_rejected')
        dns['hooks.example.eu'] = '127.0.0.1' // DNS rebinding
        const tpl = await createTemplateFor(t, k)
        const sub = await post(t, k, '/v1/submissions', {
          template_id: tpl,
          send_email: false,
          submitters: [
            { role: 'first', email: 'ann@example.eu' },
            { role: 'second', email: 'bob@example.eu' },
          ],
        })
        assert.equal(sub.statusCode, 201)
        await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
        assert.equal(await new WebhookDispatcher(t.deps).drain(), 1)
        const [attempt] = await t.deps.db.selectFrom('webhook_attempts').selectAll().execute()
        assert.match(attempt?.error ?? '', /hooks\.example\.eu resolves to 127\.0\.0\.1, a loopback address/)
        assert.equal(receiver.received.length, 0)
      } finally {
        await t.close()
      }
    })
  })
})
