import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { findActiveKey } from './account-store.ts'
import { hashApiKey } from './api-keys.ts'
import { createAccount, createDefaultAccountOnce } from './create-account.ts'

describe('accounts', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('creates the default account once, even when asked concurrently', async () => {
    const results = await Promise.all([createDefaultAccountOnce(t.deps), createDefaultAccountOnce(t.deps)])
    const created = results.filter((r) => r !== null)
    assert.equal(created.length, 1)
    assert.equal(await createDefaultAccountOnce(t.deps), null, 'never again')
    const account = created[0]!
    assert.match(account.account_id, /^acct_[0-9A-Za-z]{24}$/)
    assert.match(account.test_key, /^sk_test_[0-9A-Za-z]{32}$/)
    assert.match(account.live_key, /^sk_live_[0-9A-Za-z]{32}$/)
    assert.deepEqual(await findActiveKey(t.deps.db, account.live_key).then((k) => k?.environment), 'live')
  })

  it('stores keys only as hashes', async () => {
    const created = await createAccount(t.deps, { name: 'hashes', ownerEmail: 'owner@example.eu' })
    const rows = await t.deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', created.account_id)
      .execute()
    assert.equal(rows.length, 2)
    const dump = JSON.stringify(rows)
    assert.ok(!dump.includes(created.test_key.slice(8)))
    assert.ok(!dump.includes(created.live_key.slice(8)))
    assert.ok(rows.some((r) => r.key_hash === hashApiKey(created.test_key)))
    assert.ok(rows.every((r) => r.key_hint.length < 16))
  })
})

describe('default account on a database that already has one', () => {
  it('creates nothing when an account was made by the CLI first', async () => {
    const t = await startTestApp()
    try {
      await createAccount(t.deps, { name: 'made first' })
      assert.equal(await createDefaultAccountOnce(t.deps), null)
    } finally {
      await t.close()
    }
  })
})
