import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { Gate, gates, TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { CLAIM_LEASE_MS, CLAIM_RENEW_MS, fingerprint, purgeExpiredIdempotencyKeys } from './idempotency.ts'

describe('idempotency (docs/api.md#idempotency)', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  before(async () => {
    t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
    keys = await t.account()
  })
  after(() => t.close())
  afterEach(() => {
    gates.current = null
  })

  const create = (key: string, body: unknown, idempotencyKey?: string, url = '/v1/test/widgets') =>
    t.request(key, {
      method: 'POST',
      url,
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
    })

  const widgetCount = async (name: string) => {
    const rows = await t.deps.db.selectFrom('events').select('data').execute()
    return rows.filter((r) => JSON.parse(r.data).name === name).length
  }

  describe('happy', () => {
    it('201 first, then the identical stored response with Idempotent-Replayed: true', async () => {
      const first = await create(keys.testKey, { name: 'replayed' }, 'key-1')
      assert.equal(first.statusCode, 201)
      assert.equal(first.headers['idempotent-replayed'], undefined)
      const second = await create(keys.testKey, { name: 'replayed' }, 'key-1')
      assert.equal(second.statusCode, 201)
      assert.equal(second.headers['idempotent-replayed'], 'true')
      assert.equal(second.body, first.body)
      assert.equal(await widgetCount('replayed'), 1, 'nothing created twice')
    })

    it('treats whitespace and key order as the same body', async () => {
      const first = await create(keys.testKey, '{"name":"order","tags":[{"label":"a"}]}', 'key-order')
      const second = await create(
        keys.testKey,
        '{ "tags" : [ {"label":"a"} ],\n "name":"order" }',
        'key-order',
      )
      assert.equal(second.statusCode, 201)
      assert.equal(second.headers['idempotent-replayed'], 'true')
      assert.equal(second.body, first.body)
      assert.equal(fingerprint({ a: 1, b: [1, 2] }), fingerprint({ b: [1, 2], a: 1 }))
    })

    it('accepts every allowed character and 255 characters', async () => {
      assert.equal((await create(keys.testKey, { name: 'chars' }, 'aZ09_-+.:=')).statusCode, 201)
      assert.equal((await create(keys.testKey, { name: 'long' }, 'x'.repeat(255))).statusCode, 201)
    })

    it('scopes keys per account, environment and route', async () => {
      const other = await t.account('other')
      const a = await create(keys.testKey, { name: 'scoped' }, 'shared-key')
      const b = await create(keys.liveKey, { name: 'scoped' }, 'shared-key')
      const c = await create(other.testKey, { name: 'scoped' }, 'shared-key')
      for (const res of [a, b, c]) {
        assert.equal(res.statusCode, 201)
        assert.equal(res.headers['idempotent-replayed'], undefined)
      }
      assert.equal(new Set([a.json().id, b.json().id, c.json().id]).size, 3)
      assert.equal(await widgetCount('scoped'), 3)
    })

    it('runs again after 24 h: the stored response has expired', async () => {
      const first = await create(keys.testKey, { name: 'expiring' }, 'key-expiry')
      t.clock.advance(24 * 60 * 60 * 1000 - 1000)
      assert.equal(
        (await create(keys.testKey, { name: 'expiring' }, 'key-expiry')).headers['idempotent-replayed'],
        'true',
      )
      t.clock.advance(2000)
      const later = await create(keys.testKey, { name: 'expiring' }, 'key-expiry')
      assert.equal(later.statusCode, 201)
      assert.equal(later.headers['idempotent-replayed'], undefined)
      assert.notEqual(later.json().id, first.json().id)
    })
  })

  describe('errors', () => {
    it('400 idempotency_key_required when the header is absent', async () => {
      const res = await create(keys.testKey, { name: 'nokey' })
      assert.equal(res.statusCode, 400)
      assert.equal(errorOf(res).code, 'idempotency_key_required')
      assert.equal(await widgetCount('nokey'), 0)
    })

    for (const [label, value] of [
      ['too long', 'x'.repeat(256)],
      ['a space', 'has space'],
      ['a slash', 'a/b'],
      ['non-ASCII', 'clé'],
    ] as const) {
      it(`400 idempotency_key_required for a key with ${label}`, async () => {
        const res = await t.request(keys.testKey, {
          method: 'POST',
          url: '/v1/test/widgets',
          payload: { name: 'badkey' },
          headers: { 'idempotency-key': value },
        })
        assert.equal(res.statusCode, 400)
        assert.equal(errorOf(res).code, 'idempotency_key_required')
      })
    }

    it('422 idempotency_key_reused_with_different_body', async () => {
      assert.equal((await create(keys.testKey, { name: 'first body' }, 'key-diff')).statusCode, 201)
      const res = await create(keys.testKey, { name: 'second body' }, 'key-diff')
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'idempotency_key_reused_with_different_body')
      assert.equal(await widgetCount('second body'), 0)
    })

    it('stores nothing for a schema 422: the same key then works with a fixed body', async () => {
      const bad = await create(keys.testKey, { name: '' }, 'key-schema')
      assert.equal(bad.statusCode, 422)
      assert.equal(errorOf(bad).code, 'invalid_request')
      const good = await create(keys.testKey, { name: 'fixed' }, 'key-schema')
      assert.equal(good.statusCode, 201)
    })

    it('releases the key after a 500 whose transaction rolled back, so a retry runs again', async () => {
      const failed = await create(keys.testKey, { name: 'flaky', fail: true }, 'key-500')
      assert.equal(failed.statusCode, 500)
      assert.equal(await widgetCount('flaky'), 0, 'the transaction rolled back')
      const retried = await create(keys.testKey, { name: 'flaky', fail: true }, 'key-500')
      assert.equal(retried.statusCode, 500, 'ran again rather than replaying')
      const rows = await t.deps.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key', '=', 'key-500')
        .execute()
      assert.equal(rows.length, 0)
    })
  })

  describe('concurrency', () => {
    it('409 idempotency_key_in_use for a duplicate while the first is in flight; one creation only', async () => {
      const gate = new Gate()
      gates.current = gate
      const first = create(keys.testKey, { name: 'concurrent' }, 'key-concurrent')
      await gate.waitForEntry()
      const second = await create(keys.testKey, { name: 'concurrent' }, 'key-concurrent')
      assert.equal(second.statusCode, 409)
      assert.equal(errorOf(second).code, 'idempotency_key_in_use')
      assert.equal(second.headers['retry-after'], '1')
      gate.open()
      const done = await first
      assert.equal(done.statusCode, 201)
      const third = await create(keys.testKey, { name: 'concurrent' }, 'key-concurrent')
      assert.equal(third.headers['idempotent-replayed'], 'true')
      assert.equal(third.body, done.body)
      assert.equal(await widgetCount('concurrent'), 1)
      assert.equal(gate.entered, 1, 'the handler ran once')
    })

    it('many identical requests at once create exactly one thing', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => create(keys.testKey, { name: 'stampede' }, 'key-stampede')),
      )
      const created = responses.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed'])
      assert.equal(created.length, 1)
      for (const r of responses) assert.ok([201, 409].includes(r.statusCode), String(r.statusCode))
      assert.equal(await widgetCount('stampede'), 1)
    })

    it('renews the lease while the first request runs: still 409 long after the first lease would have lapsed', async () => {
      const gate = new Gate()
      gates.current = gate
      const first = create(keys.testKey, { name: 'renewed' }, 'key-long')
      await gate.waitForEntry()
      const lease = async () =>
        (
          await t.deps.db
            .selectFrom('idempotency_keys')
            .select('locked_until')
            .where('key', '=', 'key-long')
            .executeTakeFirstOrThrow()
        ).locked_until
      const claimed = await lease()
      assert.equal(claimed, new Date(t.clock.now().getTime() + CLAIM_LEASE_MS).toISOString())
      t.clock.advance(CLAIM_LEASE_MS - 1000)
      // A renewal comes every CLAIM_RENEW_MS of real time.
      const deadline = Date.now() + CLAIM_RENEW_MS * 3
      while ((await lease()) === claimed) {
        assert.ok(Date.now() < deadline, 'renewed within three renewal periods')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      t.clock.advance(2000)
      const second = await create(keys.testKey, { name: 'renewed' }, 'key-long')
      assert.equal(second.statusCode, 409, 'the claim was renewed, so still in flight')
      assert.equal(second.headers['retry-after'], '1')
      gate.open()
      assert.equal((await first).statusCode, 201)
      assert.equal(gate.entered, 1)
      assert.equal(await widgetCount('renewed'), 1)
    })

    it('lets a retry take over a claim whose request died (lease lapsed)', async () => {
      await t.deps.db
        .insertInto('idempotency_keys')
        .values({
          account_id: keys.accountId,
          environment: 'test',
          route: 'POST /v1/test/widgets',
          key: 'key-dead',
          fingerprint: fingerprint({ name: 'orphan' }),
          state: 'in_flight',
          claim_token: 'dead-process',
          locked_until: new Date(t.clock.now().getTime() + CLAIM_LEASE_MS).toISOString(),
          response_status: null,
          response_body: null,
          created_at: t.clock.now().toISOString(),
          expires_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
        })
        .execute()
      assert.equal((await create(keys.testKey, { name: 'orphan' }, 'key-dead')).statusCode, 409)
      t.clock.advance(CLAIM_LEASE_MS)
      const res = await create(keys.testKey, { name: 'orphan' }, 'key-dead')
      assert.equal(res.statusCode, 201)
      assert.equal(await widgetCount('orphan'), 1)
    })
  })
})

describe('idempotency housekeeping', () => {
  it('purges only records past their 24 h window', async () => {
    const t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
    try {
      const { testKey } = await t.account()
      const send = (key: string) =>
        t.request(testKey, {
          method: 'POST',
          url: '/v1/test/widgets',
          payload: { name: key },
          headers: { 'idempotency-key': key },
        })
      await send('old')
      t.clock.advance(23 * 60 * 60 * 1000)
      await send('recent')
      t.clock.advance(60 * 60 * 1000 + 1)
      assert.equal(await purgeExpiredIdempotencyKeys(t.deps.db, t.clock), 1)
      const left = await t.deps.db.selectFrom('idempotency_keys').select('key').execute()
      assert.deepEqual(
        left.map((r) => r.key),
        ['recent'],
      )
    } finally {
      await t.close()
    }
  })
})
