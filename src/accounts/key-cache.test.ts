import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { revokeApiKey } from './account-store.ts'
import { KEY_CACHE_TTL_MS, KeyCache } from './key-cache.ts'

describe('KeyCache', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('serves a verified key from memory for one second, then sees its revocation', async () => {
    const { testKey, accountId } = await t.account()
    const cache = new KeyCache(t.deps.db, t.clock)
    const first = await cache.find(testKey)
    assert.equal(first?.accountId, accountId)
    const row = await t.deps.db
      .selectFrom('api_keys')
      .select('id')
      .where('account_id', '=', accountId)
      .where('environment', '=', 'test')
      .executeTakeFirstOrThrow()
    await revokeApiKey(t.deps.db, t.clock, row.id)
    t.clock.advance(KEY_CACHE_TTL_MS - 1)
    assert.equal((await cache.find(testKey))?.accountId, accountId, 'still cached just before a second')
    t.clock.advance(1)
    assert.equal(await cache.find(testKey), undefined, 'revoked once the entry expired')
  })

  it('never caches an unknown key', async () => {
    const cache = new KeyCache(t.deps.db, t.clock)
    const made = `sk_test_${'z'.repeat(32)}`
    assert.equal(await cache.find(made), undefined)
    assert.equal(await cache.find(made), undefined)
  })
})
