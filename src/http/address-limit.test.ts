// RATE_LIMIT_SIGNER requests per minute per client address on the signer's routes (pages,
// assets, page images, the form and every act, by link and by embed token) and on /files/…, and
// TRUST_PROXY deciding whether X-Forwarded-For names that address. The clock is moved, never waited on.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { InjectOptions } from 'fastify'
import { Redis } from 'ioredis'
import { errorOf, REDIS_URL, startTestApp, type TestApp } from '../../test/harness.ts'
import { createSubmission, everyTypeBody, signerPath, submitterRow } from '../../test/signing.ts'
import { ManualClock } from '../lib/clock.ts'
import { randomBase62 } from '../lib/ids.ts'
import { pageAssets } from '../signing-page/page-assets.ts'
import { addressCounterKey } from './address-limit.ts'
import { RateLimiter } from './rate-limit.ts'

describe('addressCounterKey', () => {
  it('counts IPv4 as it is, an IPv4-mapped address as its IPv4, IPv6 by its /64', () => {
    assert.equal(addressCounterKey('203.0.113.7'), '203.0.113.7')
    assert.equal(addressCounterKey('::ffff:203.0.113.7'), '203.0.113.7')
    assert.equal(addressCounterKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
    assert.equal(addressCounterKey('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64')
    assert.notEqual(addressCounterKey('2001:db8:1:3::1'), addressCounterKey('2001:db8:1:2::1'))
  })
})

/** Every kind of route the limit covers, for one signer: [method, url]. */
async function signerRoutes(t: TestApp, key: string): Promise<Array<[InjectOptions['method'], string]>> {
  const created = await createSubmission(t, key, await everyTypeBody(['first']))
  const who = created.submitters[0]!
  const form = await t.app.inject({
    method: 'GET',
    url: `${signerPath(who)}/form`,
    remoteAddress: '192.0.2.250',
  })
  const file = new URL(form.json().documents[0].pdf_url).pathname
  const asset = [...(await pageAssets()).files.keys()][0]!
  const routes: Array<[InjectOptions['method'], string]> = [
    ['GET', signerPath(who)],
    ['GET', `${signerPath(who)}/form`],
    ['GET', `${signerPath(who)}/pages/0/1?w=200`],
    ['POST', `${signerPath(who)}/open`],
    ['POST', `${signerPath(who)}/sign`],
    ['POST', `${signerPath(who)}/decline`],
    ['POST', `${signerPath(who)}/email_2fa/send`],
    ['POST', `${signerPath(who)}/email_2fa/verify`],
    ['GET', signerPath(who, 'embed')],
    ['GET', `${signerPath(who, 'embed')}/form`],
    ['POST', `${signerPath(who, 'embed')}/sign`],
    ['GET', `${signerPath(who, 'embed')}/pages/0/1?w=200`],
    ['GET', `/signing-page/assets/${asset}`],
    ['GET', file],
    ['GET', new URL(form.json().current_pdf_url).pathname],
  ]
  return routes
}

describe('RATE_LIMIT_SIGNER over HTTP (default 300 a minute)', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const from = (remoteAddress: string, method: InjectOptions['method'], url: string, headers = {}) =>
    t.app.inject({ method, url, remoteAddress, headers })

  it('the 301st request of a minute from one address is 429 with Retry-After on every signer route and /files/…; another address still gets 200', async () => {
    const routes = await signerRoutes(t, key)
    t.clock.set('2026-11-22T10:00:15.000Z')
    const asset = routes.find(([, url]) => url.startsWith('/signing-page/'))![1]
    for (let i = 0; i < 300; i++) {
      const res = await from('198.51.100.1', 'GET', asset)
      assert.equal(res.statusCode, 200, `request ${i + 1}: ${res.body}`)
    }
    for (const [method, url] of routes) {
      const res = await from('198.51.100.1', method, url, { 'content-type': 'application/json' })
      assert.equal(res.statusCode, 429, `${method} ${url}: ${res.body}`)
      assert.deepEqual(errorOf(res), {
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        message: 'Rate limit of 300 requests per minute reached for this address; retry in 45 s.',
      })
      assert.equal(res.headers['retry-after'], '45')
    }
    const other = await from('198.51.100.2', 'GET', `${routes[1]![1]}`)
    assert.equal(other.statusCode, 200, other.body)
    const api = await t.app.inject({
      method: 'GET',
      url: '/v1/health',
      remoteAddress: '198.51.100.1',
      headers: { authorization: `Bearer ${key}` },
    })
    assert.equal(api.statusCode, 200, 'API routes are limited per key, not per address')
    t.clock.set('2026-11-22T10:01:00.000Z')
    assert.equal((await from('198.51.100.1', 'GET', asset)).statusCode, 200, 'a new minute, a new quota')
  })

  it('counts every status, refusals included: 404 for an unknown link uses the quota too', async () => {
    t.clock.set('2026-11-22T11:00:00.000Z')
    for (let i = 0; i < 300; i++) {
      assert.equal((await from('198.51.100.3', 'GET', `/s/${'x'.repeat(22)}/form`)).statusCode, 404)
    }
    assert.equal((await from('198.51.100.3', 'GET', `/s/${'x'.repeat(22)}/form`)).statusCode, 429)
  })
})

describe('TRUST_PROXY decides whether X-Forwarded-For names the client', () => {
  const cases: Array<{ env: Record<string, string>; peer: string; xff: string; seen: string }> = [
    { env: {}, peer: '10.0.0.5', xff: '198.51.100.9', seen: '10.0.0.5' },
    { env: { TRUST_PROXY: 'false' }, peer: '10.0.0.5', xff: '198.51.100.9', seen: '10.0.0.5' },
    { env: { TRUST_PROXY: 'true' }, peer: '10.0.0.5', xff: '198.51.100.9, 10.0.0.4', seen: '198.51.100.9' },
    { env: { TRUST_PROXY: '1' }, peer: '10.0.0.5', xff: '198.51.100.9, 192.0.2.4', seen: '192.0.2.4' },
    { env: { TRUST_PROXY: '2' }, peer: '10.0.0.5', xff: '198.51.100.9, 192.0.2.4', seen: '198.51.100.9' },
    { env: { TRUST_PROXY: '10.0.0.0/8' }, peer: '10.0.0.5', xff: '198.51.100.9', seen: '198.51.100.9' },
    { env: { TRUST_PROXY: '10.0.0.0/8' }, peer: '192.0.2.8', xff: '198.51.100.9', seen: '192.0.2.8' },
  ]
  for (const { env, peer, xff, seen } of cases) {
    it(`TRUST_PROXY=${env.TRUST_PROXY ?? '(unset)'}: from ${peer} with X-Forwarded-For "${xff}", the signer is ${seen}`, async () => {
      const t = await startTestApp({ env: { ...env, RATE_LIMIT_SIGNER: '2' } })
      try {
        const key = (await t.account()).testKey
        const created = await createSubmission(t, key, await everyTypeBody(['first']))
        const who = created.submitters[0]!
        const open = await t.app.inject({
          method: 'POST',
          url: `${signerPath(who)}/open`,
          remoteAddress: peer,
          headers: { 'x-forwarded-for': xff },
        })
        assert.equal(open.statusCode, 200, open.body)
        assert.equal((await submitterRow(t, who.id)).opened_ip, seen, 'the audit trail records it')
        // The limit counts the same address: one more from it is allowed, the next refused.
        const again = () =>
          t.app.inject({
            method: 'GET',
            url: `${signerPath(who)}/form`,
            remoteAddress: peer,
            headers: { 'x-forwarded-for': xff },
          })
        assert.equal((await again()).statusCode, 200)
        assert.equal((await again()).statusCode, 429)
      } finally {
        await t.close()
      }
    })
  }
})

describe('RATE_LIMIT_SIGNER with REDIS_URL', () => {
  it('two API processes (two limiters) draw from one quota per address', async () => {
    const prefix = `paraph:test:${randomBase62(8)}`
    const clock = new ManualClock()
    const [r1, r2] = [new Redis(REDIS_URL), new Redis(REDIS_URL)]
    try {
      const limits = { test: 100, live: 100, signer: 4 }
      const a = new RateLimiter({ limits, clock, redis: r1, keyPrefix: prefix })
      const b = new RateLimiter({ limits, clock, redis: r2, keyPrefix: prefix })
      const allowed = []
      for (const limiter of [a, b, a, b, a, b]) {
        allowed.push((await limiter.consume(addressCounterKey('198.51.100.4'), 'signer')).allowed)
      }
      assert.deepEqual(allowed, [true, true, true, true, false, false])
      assert.equal((await a.consume(addressCounterKey('198.51.100.5'), 'signer')).allowed, true)
    } finally {
      r1.disconnect()
      r2.disconnect()
    }
  })

  it('over HTTP: the counter of the address is in Redis, and the 3rd request of 2 is 429', async () => {
    const t = await startTestApp({ env: { REDIS_URL, RATE_LIMIT_SIGNER: '2' } })
    const redis = new Redis(REDIS_URL)
    try {
      const asset = `/signing-page/assets/${[...(await pageAssets()).files.keys()][0]}`
      const statuses = []
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ method: 'GET', url: asset, remoteAddress: '198.51.100.6' })
        statuses.push(res.statusCode)
      }
      assert.deepEqual(statuses, [200, 200, 429])
      const stored = await redis.keys(`${t.rateLimitPrefix}:signer:*`)
      assert.equal(stored.length, 1, 'one counter for the address and minute')
      assert.match(stored[0]!, /198\.51\.100\.6/)
      assert.equal(await redis.get(stored[0]!), '3')
    } finally {
      redis.disconnect()
      await t.close()
    }
  })
})
