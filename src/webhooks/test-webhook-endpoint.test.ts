import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf } from '../../test/harness.ts'
import { type HookApp, startHookApp } from '../../test/webhooks.ts'

describe('POST /v1/webhook_endpoints/{id}/test', () => {
  let h: HookApp
  let receiver: WebhookReceiver
  const test = (id: string, key = h.key) =>
    h.t.request(key, { method: 'POST', url: `/v1/webhook_endpoints/${id}/test` })
  const deliveriesList = async (id: string) =>
    (await h.t.request(h.key, { method: 'GET', url: `/v1/webhook_endpoints/${id}/deliveries` })).json()
  const health = async (id: string) =>
    (await h.t.request(h.key, { method: 'GET', url: `/v1/webhook_endpoints/${id}` })).json().health

  before(async () => {
    h = await startHookApp({ webhookTimeoutMs: 500 })
  })
  after(() => h.close())
  beforeEach(async () => {
    receiver = await WebhookReceiver.start()
  })
  afterEach(() => receiver.close())

  describe('happy', () => {
    it('200 sends a signed webhook.test now and answers the receiver’s raw answer', async () => {
      const endpoint = await h.endpoint(receiver.url())
      receiver.queue.push((_req, res) => {
        res.writeHead(202, { 'x-receiver': 'yes', 'content-type': 'text/plain' }).end('taken')
      })
      const res = await test(endpoint.id)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.equal(body.delivered, true)
      assert.equal(body.error, null)
      assert.equal(body.response.status, 202)
      assert.equal(body.response.headers['x-receiver'], 'yes')
      assert.equal(body.response.body, 'taken')
      assert.ok(Number.isInteger(body.duration_ms))
      const [hook] = receiver.received
      const sent = JSON.parse(hook!.body)
      assert.equal(sent.type, 'webhook.test')
      assert.equal(sent.id, body.event_id)
      assert.equal(sent.data.object.id, endpoint.id)
      const [t, v1] = String(hook!.headers['paraph-signature']).split(',')
      const expected = createHmac('sha256', endpoint.secret)
        .update(`${t!.slice(2)}.${hook!.body}`)
        .digest('hex')
      assert.equal(v1, `v1=${expected}`)
      // Not journaled.
      const journal = await h.t.request(h.key, { method: 'GET', url: '/v1/events?limit=100' })
      assert.ok(!journal.body.includes(body.event_id))
      // Recorded among the endpoint's deliveries, marked as a test, with its one attempt.
      const listed = (await deliveriesList(endpoint.id)).data
      assert.equal(listed.length, 1)
      const [delivery] = listed
      assert.equal(delivery.id, body.delivery_id)
      assert.deepEqual(
        [delivery.test, delivery.event_id, delivery.event_type, delivery.status, delivery.request_body],
        [true, body.event_id, 'webhook.test', 'delivered', hook!.body],
      )
      assert.deepEqual(
        delivery.attempts.map((a: { number: number; status: number; succeeded: boolean }) => [
          a.number,
          a.status,
          a.succeeded,
        ]),
        [[1, 202, true]],
      )
    })

    it('a failed test is listed failed, never retried by the dispatcher, and redelivers on demand', async () => {
      const endpoint = await h.endpoint(receiver.url())
      receiver.queue.push(answers.status(500, 'down'))
      const failed = (await test(endpoint.id)).json()
      assert.equal(failed.delivered, false)
      let [delivery] = (await deliveriesList(endpoint.id)).data
      assert.deepEqual([delivery.id, delivery.test, delivery.status], [failed.delivery_id, true, 'failed'])
      assert.equal(delivery.next_attempt_at, null)
      // The schedule never takes a test again, however late it is.
      h.t.clock.advance(3 * 24 * 60 * 60 * 1000)
      await h.work()
      assert.equal(receiver.received.length, 1)
      // Redeliver: the same event and body, a fresh signature, attempt 2.
      const retried = await h.t.request(h.key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`,
      })
      assert.equal(retried.statusCode, 200, retried.body)
      assert.deepEqual([retried.json().status, retried.json().test], ['delivered', true])
      assert.equal(receiver.received.length, 2)
      assert.equal(receiver.received[1]!.body, receiver.received[0]!.body)
      ;[delivery] = (await deliveriesList(endpoint.id)).data
      assert.deepEqual(
        delivery.attempts.map((a: { number: number; status: number }) => [a.number, a.status]),
        [
          [1, 500],
          [2, 200],
        ],
      )
      // A failed redelivery of a test counts no more than the test did.
      receiver.queue.push(answers.status(500))
      await h.t.request(h.key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`,
      })
      assert.equal((await health(endpoint.id)).consecutive_failures, 0)
    })

    it('real deliveries are marked test: false beside the tests', async () => {
      const endpoint = await h.endpoint(receiver.url())
      await test(endpoint.id)
      await h.submission()
      await h.work()
      const listed = (await deliveriesList(endpoint.id)).data
      assert.deepEqual(
        listed.map((d: { event_type: string; test: boolean }) => [d.event_type, d.test]),
        [
          ['submission.created', false],
          ['webhook.test', true],
        ],
      )
    })

    it('200 with delivered false and error null for any answer (a 500, a 418), the error of a timeout', async () => {
      const endpoint = await h.endpoint(receiver.url())
      receiver.queue.push(answers.status(500, 'down'), answers.status(418, 'teapot'), answers.hang())
      const failed = (await test(endpoint.id)).json()
      assert.equal(failed.delivered, false)
      // docs/api.md#testing-an-endpoint: the receiver answered, so there is no error to report,
      // only its status.
      assert.deepEqual([failed.response.status, failed.response.body, failed.error], [500, 'down', null])
      const teapot = (await test(endpoint.id)).json()
      assert.deepEqual([teapot.delivered, teapot.response.status, teapot.error], [false, 418, null])
      const timedOut = (await test(endpoint.id)).json()
      assert.equal(timedOut.delivered, false)
      assert.deepEqual(timedOut.response, { status: null, headers: {}, body: '' })
      assert.match(timedOut.error, /within 500 ms/)
      const state = await health(endpoint.id)
      assert.equal(state.consecutive_failures, 0, 'a failed test does not count against the endpoint')
    })

    it('a 2xx re-enables a failing and disabled endpoint; a non-2xx does not', async () => {
      const endpoint = await h.endpoint(receiver.url())
      await h.t.deps.db
        .updateTable('webhook_endpoints')
        .set({
          failing: 1,
          consecutive_failures: 12,
          failing_since: '2026-11-01T00:00:00.000Z',
          disabled_at: '2026-11-08T00:00:00.000Z',
        })
        .where('id', '=', endpoint.id)
        .execute()
      receiver.queue.push(answers.status(503))
      await test(endpoint.id)
      assert.equal((await health(endpoint.id)).disabled, true)
      const ok = await test(endpoint.id)
      assert.equal(ok.json().delivered, true)
      const state = await health(endpoint.id)
      assert.deepEqual(
        [state.failing, state.disabled, state.consecutive_failures, state.last_success_status],
        [false, false, 0, 200],
      )
      // Re-enabled: events reach it again.
      await h.submission()
      await h.work()
      assert.ok(receiver.received.some((r) => JSON.parse(r.body).type === 'submission.created'))
    })
  })

  describe('errors', () => {
    it('409 webhook_endpoint_deleted for a deleted endpoint, 404 for an unknown one', async () => {
      const endpoint = await h.endpoint(receiver.url())
      await h.t.request(h.key, { method: 'DELETE', url: `/v1/webhook_endpoints/${endpoint.id}` })
      const deleted = await test(endpoint.id)
      assert.equal(deleted.statusCode, 409)
      assert.equal(errorOf(deleted).code, 'webhook_endpoint_deleted')
      const unknown = await test(`whk_${'Y'.repeat(24)}`)
      assert.equal(unknown.statusCode, 404)
      assert.equal(receiver.received.length, 0)
    })
  })
})
