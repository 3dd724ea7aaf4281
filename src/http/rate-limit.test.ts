import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { errorOf, REDIS_URL, startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { ManualClock } from '../lib/clock.ts'
import { randomBase62 } from '../lib/ids.ts'
import { RateLimiter } from './rate-limit.ts'

function limiterContract(name: string, makeRedis: () => Redis | undefined) {
  describe(`RateLimiter (${name})`, () => {
    let redis: Redis | undefined
    before(() => {
      redis = makeRedis()
    })
    after(() => redis?.disconnect())
    const make = (clock: ManualClock) =>
      new RateLimiter({
        limits: { test: 3, live: 5, mcp: 2 },
        clock,
        redis,
        keyPrefix: `paraph:test:${randomBase62(8)}`,
      })

    it('allows the limit per minute, then refuses until the next minute', async () => {
      const clock = new ManualClock('2026-11-22T10:00:10.000Z')
      const limiter = make(clock)
      const seen = []
      for (let i = 0; i < 4; i++) seen.push(await limiter.consume('key_a', 'test'))
      assert.deepEqual(
        seen.map((d) => [d.allowed, d.remaining]),
        [
          [true, 2],
          [true, 1],
          [true, 0],
          [false, 0],
        ],
      )
      assert.equal(seen[0]!.resetAt, Date.parse('2026-11-22T10:01:00.000Z'))
      clock.set('2026-11-22T10:01:00.000Z')
      const next = await limiter.consume('key_a', 'test')
      assert.equal(next.allowed, true)
      assert.equal(next.remaining, 2)
    })

    it('counts keys apart and applies the live limit to live keys', async () => {
      const limiter = make(new ManualClock())
      for (let i = 0; i < 3; i++) await limiter.consume('key_b', 'test')
      assert.equal((await limiter.consume('key_c', 'test')).allowed, true)
      const live = []
      for (let i = 0; i < 6; i++) live.push((await limiter.consume('key_d', 'live')).allowed)
      assert.deepEqual(live, [true, true, true, true, true, false])
    })

    it('counts a key in its mcp bucket apart from its environment bucket (docs/mcp.md#rate-limits)', async () => {
      const limiter = make(new ManualClock())
      const mcp = []
      for (let i = 0; i < 3; i++) mcp.push((await limiter.consume('key_e', 'mcp')).allowed)
      assert.deepEqual(mcp, [true, true, false])
      const test = await limiter.consume('key_e', 'test')
      assert.deepEqual([test.allowed, test.limit, test.remaining], [true, 3, 2])
      for (let i = 0; i < 2; i++) await limiter.consume('key_f', 'test')
      assert.equal((await limiter.consume('key_f', 'mcp')).remaining, 1)
    })
  })
}

limiterContract('in-process', () => undefined)
limiterContract('Redis', () => new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }))

describe('RateLimiter shares counters through Redis', () => {
  it('two API processes (two limiters) draw from one quota', async () => {
    const prefix = `paraph:test:${randomBase62(8)}`
    const clock = new ManualClock()
    const r1 = new Redis(REDIS_URL)
    const r2 = new Redis(REDIS_URL)
    try {
      const a = new RateLimiter({ limits: { test: 4, live: 4 }, clock, redis: r1, keyPrefix: prefix })
      const b = new RateLimiter({ limits: { test: 4, live: 4 }, clock, redis: r2, keyPrefix: prefix })
      const results = []
      for (let i = 0; i < 3; i++) {
        results.push(
          (await a.consume('key_shared', 'test')).allowed,
          (await b.consume('key_shared', 'test')).allowed,
        )
      }
      assert.deepEqual(results, [true, true, true, true, false, false])
    } finally {
      r1.disconnect()
      r2.disconnect()
    }
  })
})

describe('rate limits over HTTP (docs/api.md#rate-limits)', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp({
      routes: [...API_ROUTES, ...TEST_ROUTES],
      env: { RATE_LIMIT_TEST: '5', RATE_LIMIT_LIVE: '7' },
    })
  })
  after(() => t.close())

  it('429 rate_limit_exceeded with Retry-After once the quota is used, and a reset next minute', async () => {
    t.clock.set('2026-11-22T10:00:15.000Z')
    const { testKey } = await t.account()
    for (let i = 0; i < 5; i++) {
      const res = await t.request(testKey, { method: 'GET', url: '/v1/health' })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-ratelimit-limit'], '5')
      assert.equal(res.headers['x-ratelimit-remaining'], String(4 - i))
      assert.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2026-11-22T10:01:00.000Z') / 1000))
    }
    const limited = await t.request(testKey, { method: 'GET', url: '/v1/health' })
    assert.equal(limited.statusCode, 429)
    assert.deepEqual(errorOf(limited), {
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message: 'Rate limit of 5 requests per minute reached for this key; retry in 45 s.',
    })
    assert.equal(limited.headers['retry-after'], '45')
    assert.equal(limited.headers['x-ratelimit-remaining'], '0')
    t.clock.set('2026-11-22T10:01:00.000Z')
    const reset = await t.request(testKey, { method: 'GET', url: '/v1/health' })
    assert.equal(reset.statusCode, 200)
    assert.equal(reset.headers['x-ratelimit-remaining'], '4')
  })

  it('uses RATE_LIMIT_LIVE for live keys', async () => {
    const { liveKey } = await t.account()
    const res = await t.request(liveKey, { method: 'GET', url: '/v1/health' })
    assert.equal(res.headers['x-ratelimit-limit'], '7')
  })

  it('counts and reports on error responses too: 404, 413, 422, 400', async () => {
    t.clock.set('2026-11-22T11:00:00.000Z')
    const { testKey } = await t.account()
    const widget = (payload: string) =>
      t.request(testKey, {
        method: 'POST',
        url: '/v1/test/widgets',
        payload,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomBase62(10) },
      })
    const responses = [
      await t.request(testKey, { method: 'GET', url: `/v1/test/widgets/sub_${'b'.repeat(24)}` }),
      await widget(JSON.stringify({ name: 'x'.repeat(2_000_000) })),
      await widget(JSON.stringify({ name: '' })),
      await t.request(testKey, { method: 'GET', url: '/v1/test/widgets/bad' }),
    ]
    assert.deepEqual(
      responses.map((r) => r.statusCode),
      [404, 413, 422, 400],
    )
    assert.equal(errorOf(responses[0]!).code, 'resource_not_found')
    assert.deepEqual(
      responses.map((r) => r.headers['x-ratelimit-remaining']),
      ['4', '3', '2', '1'],
    )
  })

  it('does not count requests without a valid key', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/health',
      headers: { authorization: 'Bearer nope' },
    })
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['x-ratelimit-limit'], undefined)
  })
})

describe('rate limits over HTTP with REDIS_URL', () => {
  it('keeps the counters in Redis and refuses past the quota', async () => {
    const t = await startTestApp({ env: { REDIS_URL, RATE_LIMIT_TEST: '2' } })
    const redis = new Redis(REDIS_URL)
    try {
      const { testKey } = await t.account()
      const statuses = []
      for (let i = 0; i < 3; i++) {
        statuses.push((await t.request(testKey, { method: 'GET', url: '/v1/health' })).statusCode)
      }
      assert.deepEqual(statuses, [200, 200, 429])
      const stored = await redis.keys(`${t.rateLimitPrefix}:*`)
      assert.equal(stored.length, 1, 'one counter for the key and minute, in Redis')
      assert.equal(await redis.get(stored[0]!), '3')
    } finally {
      redis.disconnect()
      await t.close()
    }
  })
})

describe('rate limits when Redis is away', () => {
  it('keeps serving and counts in-process, logging one warning', async () => {
    const t = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_TEST: '2' } })
    try {
      const { testKey } = await t.account()
      const statuses = []
      for (let i = 0; i < 3; i++) {
        statuses.push((await t.request(testKey, { method: 'GET', url: '/v1/health' })).statusCode)
      }
      assert.deepEqual(statuses, [200, 200, 429])
      const warnings = t.logs.entries().filter((e) => String(e.msg).startsWith('redis unavailable'))
      assert.equal(warnings.length, 1)
    } finally {
      await t.close()
    }
  })
})
