import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf } from '../../test/harness.ts'
import { deliveries, type HookApp, startHookApp } from '../../test/webhooks.ts'
import { claimDelivery } from './delivery-store.ts'

describe('POST /v1/webhook_endpoints/{id}/deliveries/{delivery_id}/retry', () => {
  let h: HookApp
  let receiver: WebhookReceiver
  const retry = (endpointId: string, deliveryId: string, key = h.key) =>
    h.t.request(key, {
      method: 'POST',
      url: `/v1/webhook_endpoints/${endpointId}/deliveries/${deliveryId}/retry`,
    })

  before(async () => {
    h = await startHookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0,60' } })
    receiver = await WebhookReceiver.start()
  })
  after(async () => {
    await receiver.close()
    await h.close()
  })

  /** An endpoint and one delivery to it, after its first attempt got `first`. */
  // Its own account each time: no other endpoint takes the queued answer.
  async function oneDelivery(first = answers.status(500)) {
    const { testKey: key } = await h.t.account()
    const endpoint = await h.endpoint(receiver.url(), ['submission.created'], key)
    receiver.queue.push(first)
    await h.submission(key)
    await h.work()
    const delivery = (await deliveries(h.t)).find((d) => d.endpoint_id === endpoint.id)!
    return { key, endpoint, delivery }
  }

  describe('happy', () => {
    it('200 redelivers a failed delivery now: same event and body, a new attempt', async () => {
      const { key, endpoint, delivery } = await oneDelivery()
      h.t.clock.advance(60_000)
      receiver.queue.push(answers.status(500))
      await h.work()
      assert.equal((await deliveries(h.t)).find((d) => d.id === delivery.id)?.state, 'failed')
      const before = receiver.received.length
      const res = await retry(endpoint.id, delivery.id, key)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.equal(body.status, 'delivered')
      assert.deepEqual(
        body.attempts.map((a: { number: number; succeeded: boolean }) => [a.number, a.succeeded]),
        [
          [1, false],
          [2, false],
          [3, true],
        ],
      )
      assert.equal(receiver.received.length, before + 1)
      assert.equal(receiver.received.at(-1)?.body, delivery.body)
    })

    it('a failed retry of a finished delivery leaves it failed, not rescheduled', async () => {
      const { key, endpoint, delivery } = await oneDelivery(answers.status(200))
      receiver.queue.push(answers.status(503))
      const res = await retry(endpoint.id, delivery.id, key)
      assert.equal(res.json().status, 'failed')
      assert.equal(res.json().last_error, 'HTTP 503')
    })
  })

  describe('errors', () => {
    it('409 webhook_delivery_in_flight while an attempt holds its lease', async () => {
      const { key, endpoint, delivery } = await oneDelivery()
      const row = (await deliveries(h.t)).find((d) => d.id === delivery.id)!
      h.t.clock.advance(60_000)
      assert.ok(await claimDelivery(h.t.deps.db, row, h.t.clock.now(), 60_000), JSON.stringify(row))
      const res = await retry(endpoint.id, delivery.id, key)
      assert.equal(res.statusCode, 409)
      assert.equal(errorOf(res).code, 'webhook_delivery_in_flight')
    })

    it('409 webhook_endpoint_deleted; 404 for a delivery of another endpoint', async () => {
      const a = await oneDelivery()
      const b = await oneDelivery()
      // Another account's delivery under one's own endpoint.
      const crossed = await retry(a.endpoint.id, b.delivery.id, a.key)
      assert.equal(crossed.statusCode, 404)
      assert.equal(errorOf(crossed).code, 'resource_not_found')
      await h.t.request(a.key, { method: 'DELETE', url: `/v1/webhook_endpoints/${a.endpoint.id}` })
      const deleted = await retry(a.endpoint.id, a.delivery.id, a.key)
      assert.equal(deleted.statusCode, 409)
      assert.equal(errorOf(deleted).code, 'webhook_endpoint_deleted')
    })
  })
})
