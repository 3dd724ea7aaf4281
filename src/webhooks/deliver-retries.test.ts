// Deliveries that fail, against real receivers on loopback: 500 then 200, timeouts, resets and
// redirects, the retry schedule with the same event to the 8th attempt, the failing flag and the
// owner's one e-mail, disabling after 7 days, and the SSRF check at connect time (DNS rebinding).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createTemplateFor, post } from '../../test/documents.ts'
import { answers } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf, startTestApp } from '../../test/harness.ts'
import {
  attemptsOf,
  signatureHex as hmac,
  OWNER_EMAIL,
  parseSignature,
  RETRY_SCHEDULE as SCHEDULE,
  useDeliveryApp,
} from '../../test/webhooks.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { mailJob } from '../mail/mail-job.ts'
import { WebhookDispatcher } from './dispatcher.ts'

describe('webhook deliveries that fail', () => {
  const c = useDeliveryApp()

  describe('failures and retries', () => {
    it('500 then 200: retried 30 s after the event with the same id and bytes and a fresh t', async () => {
      const { key, endpoint } = await c.fresh()
      c.receiver.queue.push(answers.status(500, 'boom'))
      await c.h.submission(key)
      await c.h.work()
      assert.equal(c.receiver.received.length, 1)
      const [pending] = await c.deliveriesTo(endpoint.id)
      assert.equal(pending?.state, 'pending')
      assert.equal(pending?.last_status, 500)
      assert.equal(pending?.last_error, 'HTTP 500')
      assert.equal(Date.parse(pending!.next_attempt_at) - Date.parse(pending!.event_created_at), 30_000)
      c.h.t.clock.advance(29_000)
      await c.h.work()
      assert.equal(c.receiver.received.length, 1, 'not before its time')
      c.h.t.clock.advance(1_000)
      await c.h.work()
      assert.equal(c.receiver.received.length, 2)
      const [first, second] = c.receiver.received
      assert.equal(second?.body, first?.body)
      const t1 = parseSignature(first?.headers['paraph-signature']).t
      const t2 = parseSignature(second?.headers['paraph-signature']).t
      assert.equal(t2 - t1, 30)
      assert.deepEqual(parseSignature(second?.headers['paraph-signature']).v1, [
        hmac(endpoint.secret, t2, second!.body),
      ])
      const [done] = await c.deliveriesTo(endpoint.id)
      assert.equal(done?.state, 'delivered')
      const attempts = await attemptsOf(c.h.t, done!.id)
      assert.deepEqual(
        attempts.map((a) => [a.number, a.status, a.succeeded, a.response_body]),
        [
          [1, 500, 0, 'boom'],
          [2, 200, 1, 'ok'],
        ],
      )
    })

    it('a timeout, a connection reset and a redirect are failures; the redirect is not followed', async () => {
      const { key, endpoint } = await c.fresh()
      c.receiver.queue.push(answers.hang(), answers.reset(), answers.redirect(c.receiver.url('/elsewhere')))
      await c.h.submission(key)
      await c.h.work()
      c.h.t.clock.advance(30_000)
      await c.h.work()
      c.h.t.clock.advance(270_000)
      await c.h.work()
      const [delivery] = await c.deliveriesTo(endpoint.id)
      const attempts = await attemptsOf(c.h.t, delivery!.id)
      assert.equal(attempts.length, 3)
      assert.match(attempts[0]!.error ?? '', /no complete response from 127\.0\.0\.1 within 1 s/)
      assert.equal(attempts[0]!.status, null)
      assert.match(attempts[1]!.error ?? '', /broke off|ECONNRESET/)
      assert.equal(attempts[2]!.status, 302)
      assert.equal(attempts[2]!.error, 'HTTP 302: redirects are not followed')
      assert.deepEqual(
        c.receiver.received.map((r) => r.path),
        ['/hook', '/hook', '/hook'],
      )
      assert.equal(delivery?.state, 'pending')
    })

    it('follows the schedule with the same event to the 8th attempt, then fails; failing and one e-mail to the owner', async () => {
      const account = await c.h.t.account()
      await c.h.t.deps.db
        .updateTable('accounts')
        .set({ owner_email: OWNER_EMAIL })
        .where('id', '=', account.accountId)
        .execute()
      const endpoint = await c.h.endpoint(c.receiver.url(), ['submission.created'], account.testKey)
      c.receiver.otherwise = answers.status(503)
      await c.h.submission(account.testKey)
      const start = c.h.t.clock.epochMs()
      const mails = () =>
        c.h.t.deps.db.selectFrom('jobs').select('payload').where('kind', '=', mailJob.kind).execute()
      const before = (await mails()).length
      for (const [i, offset] of SCHEDULE.entries()) {
        c.h.t.clock.set(new Date(start + offset * 1000))
        await c.h.work()
        assert.equal(c.receiver.received.length, i + 1, `attempt ${i + 1}`)
      }
      c.h.t.clock.advance(10 * 86_400_000)
      await c.h.work()
      assert.equal(c.receiver.received.length, 8, 'nothing after the last attempt')
      const ts = c.receiver.received.map(
        (r) => parseSignature(r.headers['paraph-signature']).t - Math.floor(start / 1000),
      )
      assert.deepEqual(ts, SCHEDULE)
      assert.equal(new Set(c.receiver.received.map((r) => JSON.parse(r.body).id)).size, 1)
      const [delivery] = await c.deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'failed')
      assert.equal(delivery?.attempts, 8)
      const got = (
        await c.h.t.request(account.testKey, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
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
      // Sent to the owner on nobody's behalf: the footer names the account, not "the sender".
      assert.match(
        notices[0].text,
        new RegExp(`to the owner address of the account .+ \\(${account.accountId}\\)`),
      )
      assert.ok(!notices[0].text.includes('on behalf of'))
      // More failures on a failing endpoint send no second mail.
      await c.h.submission(account.testKey)
      await c.h.work()
      const after = (await mails())
        .map((m) => JSON.parse(m.payload))
        .filter((m) => m.webhook_endpoint_id === endpoint.id)
      assert.equal(after.length, 1)
    })

    it('disabled 7 days into a failing run: pending deliveries dropped, nothing more is sent', async () => {
      const { key, endpoint } = await c.fresh(c.receiver.url(), [
        'submission.created',
        'submission.cancelled',
      ])
      c.receiver.otherwise = answers.status(500)
      const subId = await c.h.submission(key)
      const start = c.h.t.clock.epochMs()
      for (const offset of SCHEDULE) {
        c.h.t.clock.set(new Date(start + offset * 1000))
        await c.h.work()
      }
      // A new event a little past 7 days after the first failure: its first attempt disables.
      c.h.t.clock.set(new Date(start + 7 * 86_400_000))
      await c.h.t.request(key, { method: 'DELETE', url: `/v1/submissions/${subId}` })
      await c.h.work()
      const got = (
        await c.h.t.request(key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      ).json()
      assert.equal(got.health.disabled, true)
      const sent = c.receiver.received.length
      const rows = await c.deliveriesTo(endpoint.id)
      assert.ok(rows.every((d) => d.state !== 'pending'))
      const sub2 = await c.h.submission(key)
      assert.ok(sub2)
      await c.h.work()
      assert.equal(c.receiver.received.length, sent, 'a disabled endpoint receives nothing')
      assert.equal((await c.deliveriesTo(endpoint.id)).length, rows.length, 'and gets no new deliveries')
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
          payload: {
            url: `https://hooks.example.eu:${c.receiver.port}/hook`,
            events: ['submission.created'],
          },
        })
        assert.equal(created.statusCode, 201, created.body)
        const refused = await t.request(k, {
          method: 'POST',
          url: '/v1/webhook_endpoints',
          payload: { url: c.receiver.url(), events: ['submission.created'] },
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
        assert.equal(c.receiver.received.length, 0)
      } finally {
        await t.close()
      }
    })
  })
})
