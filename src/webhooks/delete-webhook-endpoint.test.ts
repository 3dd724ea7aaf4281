import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf } from '../../test/harness.ts'
import { deliveries, type HookApp, startHookApp } from '../../test/webhooks.ts'

describe('DELETE /v1/webhook_endpoints/{id}', () => {
  let h: HookApp
  let receiver: WebhookReceiver

  before(async () => {
    h = await startHookApp()
    receiver = await WebhookReceiver.start()
  })
  after(async () => {
    await receiver.close()
    await h.close()
  })

  describe('happy', () => {
    it('200 deactivates: pending deliveries are dropped and say so, nothing more is sent', async () => {
      const endpoint = await h.endpoint(receiver.url())
      receiver.otherwise = answers.status(500)
      await h.submission()
      await h.work()
      assert.equal(receiver.received.length, 1)
      const res = await h.t.request(h.key, { method: 'DELETE', url: `/v1/webhook_endpoints/${endpoint.id}` })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), {
        id: endpoint.id,
        object: 'webhook_endpoint',
        active: false,
        deleted_at: h.t.clock.now().toISOString(),
        dropped_deliveries: 1,
      })
      const [dropped] = (await deliveries(h.t)).filter((d) => d.endpoint_id === endpoint.id)
      assert.equal(dropped?.state, 'dropped')
      assert.equal(dropped?.last_error, 'endpoint deleted')
      h.t.clock.advance(3600_000)
      await h.submission()
      await h.work()
      assert.equal(receiver.received.length, 1, 'a deleted endpoint receives nothing more')
      assert.equal((await deliveries(h.t)).filter((d) => d.endpoint_id === endpoint.id).length, 1)
      const got = await h.t.request(h.key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      assert.equal(got.json().active, false)
    })

    it('200 again on a deleted endpoint, dropping nothing', async () => {
      const endpoint = await h.endpoint(receiver.url())
      const first = await h.t.request(h.key, {
        method: 'DELETE',
        url: `/v1/webhook_endpoints/${endpoint.id}`,
      })
      h.t.clock.advance(1000)
      const second = await h.t.request(h.key, {
        method: 'DELETE',
        url: `/v1/webhook_endpoints/${endpoint.id}`,
      })
      assert.equal(second.statusCode, 200)
      assert.equal(second.json().deleted_at, first.json().deleted_at)
      assert.equal(second.json().dropped_deliveries, 0)
    })
  })

  describe('errors', () => {
    it('404 resource_not_found for an unknown endpoint', async () => {
      const res = await h.t.request(h.key, {
        method: 'DELETE',
        url: `/v1/webhook_endpoints/whk_${'Q'.repeat(24)}`,
      })
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
    })
  })
})
