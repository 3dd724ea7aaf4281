import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf } from '../../test/harness.ts'
import { type HookApp, startHookApp } from '../../test/webhooks.ts'

const sign = (secret: string, header: string, body: string) =>
  `v1=${createHmac('sha256', secret)
    .update(`${header.split(',')[0]!.slice(2)}.${body}`)
    .digest('hex')}`

describe('POST /v1/webhook_endpoints/{id}/rotate_secret', () => {
  let h: HookApp
  let receiver: WebhookReceiver
  const rotate = (id: string, body: unknown = {}) =>
    h.t.request(h.key, {
      method: 'POST',
      url: `/v1/webhook_endpoints/${id}/rotate_secret`,
      payload: body as object,
    })
  const lastSignatures = () => {
    const hook = receiver.received.at(-1)!
    const header = String(hook.headers['paraph-signature'])
    return { header, body: hook.body, v1: header.split(',').slice(1) }
  }

  before(async () => {
    h = await startHookApp()
    receiver = await WebhookReceiver.start()
  })
  after(async () => {
    await receiver.close()
    await h.close()
  })

  describe('happy', () => {
    it('200 a new secret; both sign deliveries for 24 hours, then only the new one', async () => {
      const endpoint = await h.endpoint(receiver.url(), ['submission.created'])
      const res = await rotate(endpoint.id)
      assert.equal(res.statusCode, 200, res.body)
      const rotated = res.json()
      assert.match(rotated.secret, /^whsec_[0-9A-Za-z]{32}$/)
      assert.notEqual(rotated.secret, endpoint.secret)
      const expires = new Date(h.t.clock.epochMs() + 86_400_000).toISOString()
      assert.equal(rotated.previous_secret_expires_at, expires)
      const got = await h.t.request(h.key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      assert.equal('secret' in got.json(), false)
      assert.equal(got.json().previous_secret_expires_at, expires)

      await h.submission()
      await h.work()
      let last = lastSignatures()
      assert.deepEqual(last.v1, [
        sign(rotated.secret, last.header, last.body),
        sign(endpoint.secret, last.header, last.body),
      ])

      h.t.clock.advance(86_400_000)
      await h.submission()
      await h.work()
      last = lastSignatures()
      assert.deepEqual(last.v1, [sign(rotated.secret, last.header, last.body)])
      const after = await h.t.request(h.key, { method: 'GET', url: `/v1/webhook_endpoints/${endpoint.id}` })
      assert.equal(after.json().previous_secret_expires_at, null)
    })

    it('a caller-chosen overlap; 0 ends the old secret at once', async () => {
      const endpoint = await h.endpoint(receiver.url(), ['submission.created'])
      const short = (await rotate(endpoint.id, { expires_in_seconds: 600 })).json()
      assert.equal(short.previous_secret_expires_at, new Date(h.t.clock.epochMs() + 600_000).toISOString())
      const now = (await rotate(endpoint.id, { expires_in_seconds: 0 })).json()
      assert.equal(now.previous_secret_expires_at, null)
      await h.submission()
      await h.work()
      const last = lastSignatures()
      assert.deepEqual(last.v1, [sign(now.secret, last.header, last.body)])
    })
  })

  describe('errors', () => {
    it('422 invalid_request for an overlap over 24 hours or another key; 409 on a deleted endpoint', async () => {
      const endpoint = await h.endpoint(receiver.url(), ['submission.created'])
      for (const body of [
        { expires_in_seconds: 86_401 },
        { expires_in_seconds: -1 },
        { secret: 'whsec_x' },
      ]) {
        const res = await rotate(endpoint.id, body)
        assert.equal(res.statusCode, 422, JSON.stringify(body))
        assert.equal(errorOf(res).code, 'invalid_request')
      }
      await h.t.request(h.key, { method: 'DELETE', url: `/v1/webhook_endpoints/${endpoint.id}` })
      const deleted = await rotate(endpoint.id)
      assert.equal(deleted.statusCode, 409)
      assert.equal(errorOf(deleted).code, 'webhook_endpoint_deleted')
    })
  })
})
