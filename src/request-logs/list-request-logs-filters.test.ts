// GET /v1/request_logs (docs/request-logs.md): its filters (status, route in each way it may be
// written, since) and its pages, over one account's few requests at known times; what each log keeps
// and who made it: list-request-logs.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'

const requestId = (res: LightMyRequestResponse) => String(res.headers['request-id'])

describe('GET /v1/request_logs: filters and pagination', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
  })
  after(() => t.close())

  let scoped: Awaited<ReturnType<TestApp['account']>>
  /** The account's requests, newest first. */
  const sent: Array<{ id: string; status: number; route: string }> = []
  const list = async (query: string) => {
    await t.deps.requestLogs.flush()
    return t.request(scoped.testKey, { method: 'GET', url: `/v1/request_logs${query}` })
  }
  const ids = (res: LightMyRequestResponse) =>
    (res.json().data as Array<{ id: string; time: string }>).map((l) => l.id)

  before(async () => {
    scoped = await t.account('filters')
    const paths = [
      '/v1/health',
      '/v1/templates/tpl_000000000000000000000000',
      '/v1/health',
      '/v1/events?type=bad',
      '/v1/health',
    ]
    for (const url of paths) {
      t.clock.advance(1000)
      const res = await t.request(scoped.testKey, { method: 'GET', url })
      sent.unshift({
        id: requestId(res),
        status: res.statusCode,
        route: url.split('?')[0]!.replace(/tpl_0+/, '{id}'),
      })
    }
    t.clock.advance(1000)
  })

  const byRoute = (route: string) => sent.filter((s) => s.route === route).map((s) => s.id)

  it('status: an exact code, then a class', async () => {
    assert.deepEqual(
      ids(await list('?status=404')),
      sent.filter((s) => s.status === 404).map((s) => s.id),
    )
    assert.deepEqual(
      ids(await list('?status=4xx')),
      sent.filter((s) => s.status >= 400).map((s) => s.id),
    )
    assert.deepEqual(ids(await list('?status=5xx')), [])
  })

  it('route: the OpenAPI path', async () => {
    assert.deepEqual(ids(await list('?route=/v1/health')), byRoute('/v1/health'))
    assert.deepEqual(
      ids(await list(`?route=${encodeURIComponent('/v1/templates/{id}')}`)),
      byRoute('/v1/templates/{id}'),
    )
  })

  it('since: at or after the instant, in any offset', async () => {
    const page = (await list('')).json().data as Array<{ id: string; time: string }>
    const third = page.find((l) => l.id === sent[2]!.id)!
    const local = new Date(third.time).toISOString().replace('Z', '+00:00')
    const res = await list(`?since=${encodeURIComponent(local)}&route=/v1/health`)
    assert.deepEqual(ids(res), [sent[0]!.id, sent[2]!.id])
  })

  it('pagination: newest first in pages, the cursor continuing the same list', async () => {
    const all = ids(await list('?route=/v1/health'))
    const first = await list('?route=/v1/health&limit=2')
    assert.equal(first.json().has_more, true)
    const rest = await list(
      `?route=/v1/health&limit=2&cursor=${encodeURIComponent(first.json().next_cursor)}`,
    )
    assert.deepEqual([...ids(first), ...ids(rest)], all)
    assert.equal(rest.json().has_more, false)
    assert.equal(rest.json().next_cursor, null)
    const foreign = await list(`?status=404&limit=2&cursor=${encodeURIComponent(first.json().next_cursor)}`)
    assert.equal(errorOf(foreign).code, 'invalid_pagination')
  })

  it('route: a method and a concrete path, as a log line shows them, stand for their route', async () => {
    const templates = byRoute('/v1/templates/{id}')
    for (const route of [
      'GET /v1/templates/tpl_000000000000000000000000',
      'get /v1/templates/tpl_111111111111111111111111',
      '/v1/templates/tpl_anything',
      '/v1/templates/:id',
      '  GET   https://api.example.eu/v1/templates/tpl_000000000000000000000000?expand=x  ',
    ]) {
      assert.deepEqual(ids(await list(`?route=${encodeURIComponent(route)}`)), templates, route)
    }
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('GET /v1/health')}`)), byRoute('/v1/health'))
    // The method is a filter of its own: nobody POSTed to /v1/health.
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('POST /v1/health')}`)), [])
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('GET /v1/templates/{id}')}`)), templates)
  })

  it('route: a static route wins over a parameter, as the router decides', async () => {
    const pdf = await t.request(scoped.testKey, {
      method: 'POST',
      url: '/v1/submissions/from_pdf',
      payload: {},
      headers: { 'idempotency-key': 'route-filter' },
    })
    const read = await t.request(scoped.testKey, { method: 'GET', url: '/v1/submissions/from_pdf' })
    t.clock.advance(1000)
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('/v1/submissions/from_pdf')}`)), [
      requestId(pdf),
    ])
    // GET has no static route there: its route is /v1/submissions/{id}.
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('GET /v1/submissions/from_pdf')}`)), [
      requestId(read),
    ])
    assert.equal((await list(`?request_id=${requestId(read)}`)).json().data[0].route, '/v1/submissions/{id}')
  })

  it('route: a path no route answers filters on the path itself (its 404s)', async () => {
    const lost = await t.request(scoped.testKey, { method: 'GET', url: '/v1/nowhere/at/all?x=1' })
    t.clock.advance(1000)
    assert.equal(lost.statusCode, 404)
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('GET /v1/nowhere/at/all')}`)), [
      requestId(lost),
    ])
    assert.deepEqual(ids(await list(`?route=${encodeURIComponent('/v1/nowhere/else')}`)), [])
  })

  for (const route of ['FETCH /v1/health', 'health', 'GET', 'GET v1/health']) {
    it(`422 invalid_request for route=${route}, saying how to write it`, async () => {
      const res = await list(`?route=${encodeURIComponent(route)}`)
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_request')
      assert.equal(errorOf(res).param, 'route')
      assert.match(errorOf(res).message, /`POST \/v1\/submissions`, `GET \/v1\/submissions\/sub_123`/)
    })
  }

  for (const [query, code] of [
    ['?source=dashboard', 'invalid_request'],
    ['?key_id=sk_test_x', 'invalid_request'],
    ['?status=600', 'invalid_status'],
    ['?status=4XX', 'invalid_status'],
    ['?status=ok', 'invalid_status'],
    ['?since=yesterday', 'invalid_request'],
    ['?request_id=req_1', 'invalid_request'],
    ['?limit=0', 'invalid_pagination'],
    ['?cursor=garbage', 'invalid_pagination'],
  ] as const) {
    it(`422 ${code} for ${query}`, async () => {
      const res = await list(query)
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, code)
    })
  }
})
