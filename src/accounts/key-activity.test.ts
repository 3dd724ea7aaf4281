// Key activity (docs/deprecations.md#what-is-recorded): last_used_at to the minute, written at most
// once a minute per key; one row per key, route and UTC day; both written off the request. Time
// moves by the clock.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { listAccountKeys, purgeOldRouteDays } from './key-activity.ts'

describe('key activity', () => {
  let t: TestApp
  let account: { accountId: string; testKey: string; liveKey: string }
  before(async () => {
    t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
    account = await t.account('Activity')
  })
  after(() => t.close())

  const keyRow = async (environment: 'test' | 'live') =>
    t.deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .where('environment', '=', environment)
      .executeTakeFirstOrThrow()
  const routeDays = () =>
    t.deps.db
      .selectFrom('key_route_days')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .orderBy('day')
      .orderBy('route')
      .execute()
  const call = async (key: string, url: string) => {
    const res = await t.request(key, { method: 'GET', url })
    await t.deps.keyActivity.flush()
    return res
  }

  it('purges route days older than 35 UTC days, keeping the 35th', async () => {
    const other = await t.account('Purged')
    t.clock.set('2026-08-01T12:00:00.000Z')
    await call(other.liveKey, '/v1/health')
    t.clock.set('2026-08-02T00:00:00.000Z')
    await call(other.liveKey, '/v1/health')
    const days = async () =>
      (
        await t.deps.db
          .selectFrom('key_route_days')
          .select('day')
          .where('account_id', '=', other.accountId)
          .orderBy('day')
          .execute()
      ).map((r) => r.day)
    assert.deepEqual(await days(), ['2026-08-01', '2026-08-02'])
    // 2026-09-05 is the 35th day from 2026-08-02: that day stays, the one before goes.
    t.clock.set('2026-09-05T23:59:59.000Z')
    assert.ok((await purgeOldRouteDays(t.deps.db, t.clock)) >= 1)
    assert.deepEqual(await days(), ['2026-08-02'])
    t.clock.set('2026-09-06T00:00:00.000Z')
    await purgeOldRouteDays(t.deps.db, t.clock)
    assert.deepEqual(await days(), [])
  })

  it('last_used_at is null until the key is used, then the minute of its use', async () => {
    assert.equal((await keyRow('live')).last_used_at, null)
    t.clock.set('2026-11-22T10:07:42.123Z')
    assert.equal((await call(account.liveKey, '/v1/health')).statusCode, 200)
    assert.equal((await keyRow('live')).last_used_at, '2026-11-22T10:07:00.000Z')
    assert.equal((await keyRow('test')).last_used_at, null, 'another key is untouched')
  })

  it('writes last_used_at at most once a minute per key', async () => {
    t.clock.set('2026-11-22T11:00:05.000Z')
    await call(account.liveKey, '/v1/health')
    // A marker in the row, earlier than the minute: a second write within the minute would replace it.
    await t.deps.db
      .updateTable('api_keys')
      .set({ last_used_at: '2026-11-22T00:00:00.000Z' })
      .where('id', '=', (await keyRow('live')).id)
      .execute()
    t.clock.set('2026-11-22T11:00:59.999Z')
    await call(account.liveKey, '/v1/health')
    await call(account.liveKey, '/v1/test/old')
    assert.equal((await keyRow('live')).last_used_at, '2026-11-22T00:00:00.000Z')
    t.clock.set('2026-11-22T11:01:00.000Z')
    await call(account.liveKey, '/v1/health')
    assert.equal((await keyRow('live')).last_used_at, '2026-11-22T11:01:00.000Z')
  })

  it('never moves last_used_at back (another process wrote a later minute)', async () => {
    await t.deps.db
      .updateTable('api_keys')
      .set({ last_used_at: '2026-11-22T12:30:00.000Z' })
      .where('id', '=', (await keyRow('live')).id)
      .execute()
    t.clock.set('2026-11-22T12:10:00.000Z')
    await call(account.liveKey, '/v1/health')
    assert.equal((await keyRow('live')).last_used_at, '2026-11-22T12:30:00.000Z')
  })

  it('records one row per key, route pattern and UTC day, errors included', async () => {
    await t.deps.db.deleteFrom('key_route_days').execute()
    t.clock.set('2026-11-23T23:59:00.000Z')
    await call(account.liveKey, '/v1/test/widgets/sub_aaaaaaaaaaaaaaaaaaaaaaaa')
    // The same pattern with another id, a 404: the same row.
    assert.equal(
      (await call(account.liveKey, '/v1/test/widgets/sub_bbbbbbbbbbbbbbbbbbbbbbbb')).statusCode,
      404,
    )
    await call(account.liveKey, '/v1/test/old')
    await call(account.testKey, '/v1/test/old')
    const live = (await keyRow('live')).id
    const test = (await keyRow('test')).id
    assert.deepEqual(
      (await routeDays()).map((r) => [r.key_id, r.environment, r.route, r.day]),
      [
        [live, 'live', 'GET /v1/test/old', '2026-11-23'],
        [test, 'test', 'GET /v1/test/old', '2026-11-23'],
        [live, 'live', 'GET /v1/test/widgets/:id', '2026-11-23'],
      ].sort((a, b) => a[2]!.localeCompare(b[2]!)),
    )
    t.clock.set('2026-11-24T00:00:30.000Z')
    await call(account.liveKey, '/v1/test/old')
    assert.deepEqual(
      (await routeDays()).filter((r) => r.day === '2026-11-24').map((r) => [r.key_id, r.route]),
      [[live, 'GET /v1/test/old']],
    )
  })

  it('writes a route-day row once per process: a row removed meanwhile is not written again that day', async () => {
    t.clock.set('2026-11-24T08:00:00.000Z')
    await t.deps.db.deleteFrom('key_route_days').where('day', '=', '2026-11-24').execute()
    await call(account.liveKey, '/v1/test/old')
    assert.equal((await routeDays()).filter((r) => r.day === '2026-11-24').length, 0)
  })

  it('records nothing for a call without a valid key or to an unknown route', async () => {
    await t.deps.db.deleteFrom('key_route_days').execute()
    t.clock.set('2026-11-25T09:00:00.000Z')
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/test/old' })).statusCode, 401)
    assert.equal((await call(account.liveKey, '/v1/nowhere')).statusCode, 404)
    assert.equal((await call('sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/v1/health')).statusCode, 401)
    await t.deps.keyActivity.flush()
    assert.deepEqual(await routeDays(), [])
  })

  it('lists an account’s keys with their hint and last use, no secret', async () => {
    const keys = await listAccountKeys(t.deps.db, account.accountId)
    assert.deepEqual(keys.map((k) => k.environment).sort(), ['live', 'test'])
    const live = keys.find((k) => k.environment === 'live')!
    assert.equal(live.hint, `${account.liveKey.slice(0, 12)}…`)
    // The unknown route's 404 (09:00) is no route's call: the last use is the 08:00 call.
    assert.equal(live.last_used_at, '2026-11-24T08:00:00.000Z')
    assert.deepEqual(Object.keys(live), [
      'id',
      'environment',
      'hint',
      'created_at',
      'revoked_at',
      'last_used_at',
      'name',
    ])
  })

  it('answers while the database refuses the writes, logs it, and writes at the next call', async () => {
    await t.deps.db.deleteFrom('key_route_days').execute()
    t.clock.set('2026-11-26T10:00:00.000Z')
    const warnings = () => t.logs.entries().filter((e) => e.msg === 'could not record API key activity')
    const before = warnings().length
    await sql`alter table key_route_days rename to key_route_days_away`.execute(t.deps.db)
    try {
      assert.equal((await call(account.liveKey, '/v1/test/old')).statusCode, 200)
    } finally {
      await sql`alter table key_route_days_away rename to key_route_days`.execute(t.deps.db)
    }
    assert.equal(warnings().length, before + 1)
    // The same minute and day: the failed writes were forgotten, so this call writes both.
    assert.equal((await call(account.liveKey, '/v1/test/old')).statusCode, 200)
    assert.deepEqual(
      (await routeDays()).map((r) => [r.route, r.day]),
      [['GET /v1/test/old', '2026-11-26']],
    )
    assert.equal((await keyRow('live')).last_used_at, '2026-11-26T10:00:00.000Z')
  })
})
