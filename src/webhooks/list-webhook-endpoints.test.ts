import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

describe('GET /v1/webhook_endpoints and GET /v1/webhook_endpoints/{id}', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  const ids: string[] = []

  before(async () => {
    t = await startTestApp({ env: { ALLOW_PRIVATE_NETWORK_URLS: 'true' } })
    keys = await t.account()
    for (let i = 0; i < 5; i++) {
      const res = await t.request(keys.testKey, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        payload: { url: `http://127.0.0.1:9/${i}`, events: ['submission.sent'] },
      })
      ids.push(res.json().id)
      t.clock.advance(1000)
    }
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 lists newest first in pages, without secrets, deleted ones shown inactive', async () => {
      await t.request(keys.testKey, { method: 'DELETE', url: `/v1/webhook_endpoints/${ids[1]}` })
      const seen: Array<{ id: string; active: boolean }> = []
      let cursor: string | null = null
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        const res = await t.request(keys.testKey, {
          method: 'GET',
          url: `/v1/webhook_endpoints?limit=2${query}`,
        })
        assert.equal(res.statusCode, 200)
        const body = res.json()
        assert.deepEqual(Object.keys(body).sort(), ['data', 'has_more', 'next_cursor'])
        for (const item of body.data) assert.equal('secret' in item, false)
        seen.push(...body.data)
        cursor = body.next_cursor
      } while (cursor)
      assert.deepEqual(
        seen.map((e) => e.id),
        [...ids].reverse(),
      )
      assert.deepEqual(
        seen.map((e) => e.active),
        [true, true, true, false, true],
      )
    })

    it('200 detail with the health state', async () => {
      const res = await t.request(keys.testKey, { method: 'GET', url: `/v1/webhook_endpoints/${ids[0]}` })
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.equal(body.id, ids[0])
      assert.equal(body.url, 'http://127.0.0.1:9/0')
      assert.equal(body.health.failing, false)
      assert.equal(body.health.disabled, false)
      assert.equal(body.created_at, '2026-11-22T10:00:00.000Z')
    })
  })

  describe('errors', () => {
    it('422 invalid_pagination for a bad limit or cursor; 400 invalid_id; 404 for an unknown id', async () => {
      for (const url of ['/v1/webhook_endpoints?limit=0', '/v1/webhook_endpoints?cursor=nope']) {
        const res = await t.request(keys.testKey, { method: 'GET', url })
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, 'invalid_pagination')
      }
      const bad = await t.request(keys.testKey, { method: 'GET', url: '/v1/webhook_endpoints/whk_1' })
      assert.equal(errorOf(bad).code, 'invalid_id')
      const unknown = await t.request(keys.testKey, {
        method: 'GET',
        url: `/v1/webhook_endpoints/whk_${'Z'.repeat(24)}`,
      })
      assert.equal(unknown.statusCode, 404)
      assert.equal(errorOf(unknown).code, 'resource_not_found')
    })
  })

  describe('security', () => {
    it("never lists another environment's endpoints", async () => {
      const live = await t.request(keys.liveKey, { method: 'GET', url: '/v1/webhook_endpoints' })
      assert.deepEqual(live.json().data, [])
    })
  })
})
