import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { revokeApiKey } from './account-store.ts'
import { KEY_CACHE_TTL_MS } from './key-cache.ts'

describe('GET /v1/health', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 with the test environment for a test key', async () => {
      const res = await t.request(keys.testKey, { method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), {
        object: 'health',
        status: 'ok',
        environment: 'test',
        livemode: false,
        account_id: keys.accountId,
      })
      assert.match(String(res.headers['request-id']), /^req_[0-9A-Za-z]{24}$/)
      assert.equal(res.headers['x-ratelimit-limit'], '100')
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
    })

    it('200 with the live environment and limit for a live key', async () => {
      const res = await t.request(keys.liveKey, { method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().environment, 'live')
      assert.equal(res.json().livemode, true)
      assert.equal(res.headers['x-ratelimit-limit'], '1000')
    })
  })

  describe('security', () => {
    it('401 missing_api_key without an Authorization header', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 401)
      assert.deepEqual(errorOf(res), {
        type: 'authentication_error',
        code: 'missing_api_key',
        message: errorOf(res).message,
      })
      assert.equal(res.headers['x-ratelimit-limit'], undefined, 'no key, no counter')
    })

    for (const [label, header] of [
      ['garbage', 'garbage'],
      ['a Basic scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['a key of the wrong shape', 'Bearer sk_test_short'],
      ['an unknown prefix', `Bearer pk_test_${'a'.repeat(32)}`],
      ['an unknown well-formed key', `Bearer sk_test_${'a'.repeat(32)}`],
      ['two keys', `Bearer sk_test_${'a'.repeat(32)} sk_test_${'b'.repeat(32)}`],
    ] as const) {
      it(`401 invalid_api_key for ${label}`, async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/v1/health',
          headers: { authorization: header },
        })
        assert.equal(res.statusCode, 401)
        assert.equal(errorOf(res).code, 'invalid_api_key')
        assert.equal(errorOf(res).type, 'authentication_error')
      })
    }

    it('401 invalid_api_key within a second of the key being revoked, while the other key still works', async () => {
      const other = await t.account('revocation')
      const row = await t.deps.db
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', other.accountId)
        .where('environment', '=', 'test')
        .executeTakeFirstOrThrow()
      assert.equal((await t.request(other.testKey, { method: 'GET', url: '/v1/health' })).statusCode, 200)
      assert.equal(await revokeApiKey(t.deps.db, t.clock, row.id), true)
      assert.equal(await revokeApiKey(t.deps.db, t.clock, row.id), false, 'a second revoke changes nothing')
      t.clock.advance(KEY_CACHE_TTL_MS)
      const res = await t.request(other.testKey, { method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'invalid_api_key')
      assert.equal((await t.request(other.liveKey, { method: 'GET', url: '/v1/health' })).statusCode, 200)
    })

    it('never writes a key into the logs', async () => {
      await t.request(keys.testKey, { method: 'GET', url: '/v1/health' })
      await t.app.inject({
        method: 'GET',
        url: '/v1/health',
        headers: { authorization: 'Bearer sk_test_leak' },
      })
      const all = t.logs.lines.join('\n')
      assert.ok(t.logs.lines.length > 0)
      assert.ok(!all.includes(keys.testKey.slice(8)), 'the secret part of a key is in the logs')
      assert.ok(!all.includes('sk_test_leak'))
      const line = t.logs.entries().find((e) => e.msg === 'request' && e.status === 200)
      assert.ok(line, 'one structured line per request')
      assert.equal(line.route, '/v1/health')
      assert.match(String(line.request_id), /^req_/)
      assert.equal(line.account_id, keys.accountId)
    })
  })
})
