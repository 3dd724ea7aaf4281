// Deliveries that succeed, against real receivers on loopback: what is sent (body of
// docs/webhooks.md#the-body, signature, headers), the submission as it was at the event, event
// subsets, slow and huge answers. Failures, retries and the SSRF check at connect time:
// deliver-retries.test.ts.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { attemptsOf, signatureHex as hmac, parseSignature, useDeliveryApp } from '../../test/webhooks.ts'

describe('webhook deliveries', () => {
  const c = useDeliveryApp()

  describe('happy', () => {
    it('POSTs the §6.3 body, signed, with JSON and Paraph user agent; the delivery is delivered', async () => {
      const { key, endpoint } = await c.fresh()
      const subId = await c.h.submission(key)
      await c.h.work()
      assert.equal(c.receiver.received.length, 1)
      const hook = c.receiver.received[0]!
      assert.equal(hook.method, 'POST')
      assert.equal(hook.path, '/hook')
      assert.equal(hook.headers['content-type'], 'application/json')
      assert.match(String(hook.headers['user-agent']), /^Paraph-Webhooks\//)
      const { t, v1 } = parseSignature(hook.headers['paraph-signature'])
      assert.equal(t, Math.floor(c.h.t.clock.epochMs() / 1000))
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
        'bulk_send_id',
        'completed_at',
        'id',
        'metadata',
        'purged_at',
        'reminders',
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
      const journal = await c.h.t.request(key, { method: 'GET', url: `/v1/events?submission_id=${subId}` })
      assert.equal(journal.json().data[0].id, body.id)
      const [delivery] = await c.deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      assert.equal(delivery?.event_id, body.id)
      assert.equal(delivery?.body, hook.body)
      const health = (
        await c.h.t.request(key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      ).json().health
      assert.equal(health.last_success_status, 200)
      assert.equal(health.consecutive_failures, 0)
    })

    it('data.object is the submission as it was at the event, not as it is at delivery', async () => {
      const { key, endpoint } = await c.fresh()
      const subId = await c.h.submission(key)
      const cancel = await c.h.t.request(key, { method: 'DELETE', url: `/v1/submissions/${subId}` })
      assert.equal(cancel.statusCode, 200)
      await c.h.work()
      const bodies = c.receiver.received.map((r) => JSON.parse(r.body))
      const byType = Object.fromEntries(bodies.map((b) => [b.type, b.data.object.status]))
      assert.deepEqual(byType, { 'submission.created': 'created', 'submission.cancelled': 'cancelled' })
      assert.equal((await c.deliveriesTo(endpoint.id)).length, 2)
    })

    it('each endpoint gets only its own subset of events', async () => {
      const account = await c.h.t.account()
      const other = await WebhookReceiver.start()
      try {
        await c.h.endpoint(c.receiver.url('/created'), ['submission.created'], account.testKey)
        await c.h.endpoint(
          other.url('/cancelled'),
          ['submission.cancelled', 'submission.completed'],
          account.testKey,
        )
        const subId = await c.h.submission(account.testKey)
        await c.h.t.request(account.testKey, { method: 'DELETE', url: `/v1/submissions/${subId}` })
        await c.h.work()
        assert.deepEqual(
          c.receiver.received.map((r) => JSON.parse(r.body).type),
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
      const { key, endpoint } = await c.fresh()
      c.receiver.otherwise = (_req, res) => {
        setTimeout(() => res.writeHead(204).end(), 200)
      }
      await c.h.submission(key)
      await c.h.work()
      const [delivery] = await c.deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      const [attempt] = await attemptsOf(c.h.t, delivery!.id)
      assert.equal(attempt?.status, 204)
      assert.ok(attempt!.duration_ms >= 150, String(attempt?.duration_ms))
    })

    it('a huge 2xx answer is delivered; only its first 64 KB are kept', async () => {
      const { key, endpoint } = await c.fresh()
      c.receiver.otherwise = answers.huge(5 * 1024 * 1024)
      await c.h.submission(key)
      await c.h.work()
      const [delivery] = await c.deliveriesTo(endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      const [attempt] = await attemptsOf(c.h.t, delivery!.id)
      assert.equal(attempt?.response_body?.length, 64 * 1024)
    })
  })
})
