// GET /v1/request_logs (docs/request-logs.md): what a request's log keeps (route, path, key, status,
// the error envelope, never a body), that no other account or environment sees it, and who made it
// (a key or a console member). Its filters and pages: list-request-logs-filters.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { signedInMember } from '../../test/console/console-client.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { decodeBatch } from './request-log-form.ts'

interface Log {
  id: string
  object: string
  request_id: string
  time: string
  method: string
  route: string | null
  path: string
  status: number
  error_code: string | null
  key_id: string
  source: 'api_key' | 'console'
  key_name: string | null
  key_prefix: string | null
  member_email: string | null
  environment: string
  idempotency_key: string | null
  replayed: boolean
  duration_ms: number
  client_ip: string
  user_agent: string | null
  error: { error: { type: string; code: string; message: string } } | null
}

const requestId = (res: LightMyRequestResponse) => String(res.headers['request-id'])

describe('GET /v1/request_logs', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>

  /** A request of the test key, one second after the previous one (distinct times, newest first). */
  const call = async (
    url: string,
    options: {
      method?: 'GET' | 'POST'
      payload?: Record<string, unknown>
      headers?: Record<string, string>
    } = {},
  ) => {
    t.clock.advance(1000)
    return t.request(keys.testKey, { method: options.method ?? 'GET', url, ...options })
  }
  /** The logs as the key sees them, once every buffered record is written. */
  const logs = async (query = '', key = keys.testKey) => {
    await t.deps.requestLogs.flush()
    const res = await t.request(key, { method: 'GET', url: `/v1/request_logs${query}` })
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { data: Log[]; has_more: boolean; next_cursor: string | null }
  }
  /** Every request stored, every account's, as the batches hold them. */
  const storedRecords = async () =>
    (await t.deps.db.selectFrom('request_log_batches').selectAll().execute()).flatMap(decodeBatch)
  const one = async (res: LightMyRequestResponse) => {
    const page = await logs(`?request_id=${requestId(res)}`)
    assert.equal(page.data.length, 1, `no log for ${requestId(res)}`)
    return page.data[0]!
  }

  before(async () => {
    t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
    keys = await t.account()
  })
  after(() => t.close())

  describe('what is kept', () => {
    it('200: a success with its route, path without query, key, environment, duration, address and agent', async () => {
      const res = await call('/v1/submissions?limit=3', {
        headers: { 'user-agent': 'acme-sdk/2.0' },
      })
      assert.equal(res.statusCode, 200)
      const log = await one(res)
      assert.equal(log.id, requestId(res))
      assert.equal(log.request_id, log.id)
      assert.equal(log.object, 'request_log')
      assert.equal(log.time, t.clock.now().toISOString())
      assert.equal(log.method, 'GET')
      assert.equal(log.route, '/v1/submissions')
      assert.equal(log.path, '/v1/submissions')
      assert.equal(log.status, 200)
      assert.equal(log.error_code, null)
      assert.equal(log.error, null)
      assert.equal(log.environment, 'test')
      assert.match(log.key_id, /^key_[0-9A-Za-z]{24}$/)
      assert.equal(log.idempotency_key, null)
      assert.equal(log.replayed, false)
      assert.equal(typeof log.duration_ms, 'number')
      assert.ok(log.duration_ms >= 0)
      assert.equal(log.client_ip, '127.0.0.1')
      assert.equal(log.user_agent, 'acme-sdk/2.0')
    })

    it('the route is written as the OpenAPI path, the path as requested', async () => {
      const res = await call('/v1/submissions/sub_000000000000000000000000')
      const log = await one(res)
      assert.equal(log.route, '/v1/submissions/{id}')
      assert.equal(log.path, '/v1/submissions/sub_000000000000000000000000')
    })

    it('404 resource_not_found: the error code and the envelope sent are kept', async () => {
      const res = await call('/v1/templates/tpl_000000000000000000000000')
      assert.equal(res.statusCode, 404)
      const log = await one(res)
      assert.equal(log.status, 404)
      assert.equal(log.error_code, 'resource_not_found')
      assert.deepEqual(log.error, res.json())
    })

    it('422 invalid_request of a body: the envelope is kept, never the body', async () => {
      const res = await call('/v1/test/widgets', {
        method: 'POST',
        payload: { name: 'secret-body-value', unknown: 1 },
        headers: { 'idempotency-key': 'body-check' },
      })
      assert.equal(res.statusCode, 422)
      const log = await one(res)
      assert.equal(log.error_code, 'invalid_request')
      assert.deepEqual(log.error, res.json())
      const stored = await storedRecords()
      assert.ok(stored.some((record) => record[0] === log.id))
      assert.ok(!JSON.stringify(stored).includes('secret-body-value'))
    })

    it('an unknown /v1 route with a valid key is logged with a null route', async () => {
      const res = await call('/v1/nowhere')
      assert.equal(res.statusCode, 404)
      const log = await one(res)
      assert.equal(log.route, null)
      assert.equal(log.path, '/v1/nowhere')
      assert.equal(log.error_code, 'resource_not_found')
    })

    it('an idempotent replay is logged with its key and replayed: true', async () => {
      const options = {
        method: 'POST' as const,
        payload: { name: 'w' },
        headers: { 'idempotency-key': 'replay-1' },
      }
      const first = await call('/v1/test/widgets', options)
      const second = await call('/v1/test/widgets', options)
      assert.equal(first.statusCode, 201)
      assert.equal(second.headers['idempotent-replayed'], 'true')
      const [a, b] = [await one(first), await one(second)]
      assert.equal(a.idempotency_key, 'replay-1')
      assert.equal(a.replayed, false)
      assert.equal(b.idempotency_key, 'replay-1')
      assert.equal(b.replayed, true)
      assert.equal(b.status, 201)
    })

    it('401 without a valid key is logged to no account', async () => {
      await t.deps.requestLogs.flush()
      const before = (await storedRecords()).length
      const missing = await t.app.inject({ method: 'GET', url: '/v1/health' })
      const invalid = await t.request(`sk_test_${'x'.repeat(32)}`, { method: 'GET', url: '/v1/health' })
      assert.equal(missing.statusCode, 401)
      assert.equal(invalid.statusCode, 401)
      await t.deps.requestLogs.flush()
      const rows = await storedRecords()
      assert.equal(rows.length, before)
      const ids = new Set(rows.map((r) => r[0]))
      assert.ok(!ids.has(requestId(missing)))
      assert.ok(!ids.has(requestId(invalid)))
    })
  })

  describe('scoping', () => {
    it("another account's logs and the other environment's are never visible", async () => {
      const mine = await call('/v1/health')
      const other = await t.account('other')
      const theirs = await t.request(other.testKey, { method: 'GET', url: '/v1/health' })
      const otherPage = await logs('', other.testKey)
      assert.deepEqual(
        otherPage.data.map((l) => l.id),
        [requestId(theirs)],
      )
      assert.deepEqual((await logs(`?request_id=${requestId(mine)}`, other.testKey)).data, [])
      // The same account's live key: its own environment only.
      const live = await logs('', keys.liveKey)
      assert.deepEqual(live.data, [])
      const liveCall = await t.request(keys.liveKey, { method: 'GET', url: '/v1/health' })
      const livePage = await logs('', keys.liveKey)
      assert.ok(livePage.data.some((l) => l.id === requestId(liveCall) && l.environment === 'live'))
      assert.ok(livePage.data.every((l) => l.environment === 'live'))
    })
  })

  describe('who made each request: keys and console members', () => {
    let acct: Awaited<ReturnType<TestApp['account']>>
    const list = async (query: string) => {
      await t.deps.requestLogs.flush()
      const res = await t.request(acct.testKey, { method: 'GET', url: `/v1/request_logs${query}` })
      assert.equal(res.statusCode, 200, res.body)
      return res.json().data as Log[]
    }

    before(async () => {
      acct = await t.account('callers')
    })

    it('names the key (its name and prefix) or the console member (its address), told apart by source', async () => {
      const member = await signedInMember(t, acct.accountId, { email: 'dev@callers.example.eu' })
      const created = await member.request({
        method: 'POST',
        url: '/console/api/keys',
        payload: { name: 'Billing backend' },
      })
      assert.equal(created.statusCode, 201, created.body)
      const named = created.json()
      t.clock.advance(1000)
      const byNamed = await t.request(named.secret, { method: 'GET', url: '/v1/health' })
      t.clock.advance(1000)
      const byUnnamed = await t.request(acct.testKey, { method: 'GET', url: '/v1/health' })
      t.clock.advance(1000)
      const byConsole = await member.request({ method: 'GET', url: '/v1/templates' })
      assert.equal(byConsole.statusCode, 200, byConsole.body)
      t.clock.advance(1000)
      const all = await list('')
      const log = (res: LightMyRequestResponse) => all.find((l) => l.id === requestId(res))!
      assert.deepEqual(
        [log(byNamed).source, log(byNamed).key_id, log(byNamed).key_name, log(byNamed).key_prefix],
        ['api_key', named.id, 'Billing backend', named.prefix],
      )
      assert.equal(log(byNamed).member_email, null)
      assert.deepEqual(
        [log(byUnnamed).source, log(byUnnamed).key_name, log(byUnnamed).member_email],
        ['api_key', null, null],
      )
      assert.match(log(byUnnamed).key_prefix!, /^sk_test_[0-9A-Za-z]{4}$/)
      assert.deepEqual(
        [
          log(byConsole).source,
          log(byConsole).key_id,
          log(byConsole).member_email,
          log(byConsole).key_prefix,
        ],
        ['console', member.memberId, 'dev@callers.example.eu', null],
      )

      // Filters: one key, one member, API keys only, the console only.
      const only = async (query: string) => (await list(query)).map((l) => l.id)
      assert.deepEqual(await only(`?key_id=${named.id}`), [requestId(byNamed)])
      assert.ok((await only(`?key_id=${member.memberId}`)).includes(requestId(byConsole)))
      assert.ok((await list(`?key_id=${member.memberId}`)).every((l) => l.key_id === member.memberId))
      const apiOnly = await list('?source=api_key')
      assert.ok(apiOnly.every((l) => l.source === 'api_key'))
      assert.ok(apiOnly.some((l) => l.id === requestId(byUnnamed)))
      const consoleOnly = await list(`?source=console&route=${encodeURIComponent('GET /v1/templates')}`)
      assert.deepEqual(
        consoleOnly.map((l) => l.id),
        [requestId(byConsole)],
      )
    })
  })
})
