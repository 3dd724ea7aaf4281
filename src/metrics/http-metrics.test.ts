// METRICS_LISTEN: a known sequence of requests, then GET /metrics read back —
// exact counter values and labels, the route label a pattern (never an id), 404 for anything else on
// the listener, and nothing at all when the variable is unset.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { listenForMetrics, scrape, series } from '../../test/metrics.ts'
import { NO_METRICS } from './metrics.ts'
import type { MetricsServer } from './metrics-server.ts'

const UNKNOWN_SUBMISSION = `sub_${'a'.repeat(24)}`

describe('GET /metrics: HTTP requests by method, route pattern and status', () => {
  let t: TestApp
  let server: MetricsServer
  let key: string
  let text: string
  let samples: Map<string, number>
  before(async () => {
    t = await startTestApp({ env: { METRICS_LISTEN: '127.0.0.1:0' } })
    server = await listenForMetrics(t)
    key = (await t.account()).testKey
    for (let i = 0; i < 3; i++) assert.equal((await t.request(key, { url: '/v1/health' })).statusCode, 200)
    const missing = await t.request(key, { url: `/v1/submissions/${UNKNOWN_SUBMISSION}` })
    assert.equal(missing.statusCode, 404)
    assert.equal((await t.app.inject({ url: '/no/such/path/sub_123' })).statusCode, 404)
    ;({ text, samples } = await scrape(server.address))
  })
  after(async () => {
    await server.close()
    await t.close()
  })

  const requests = (method: string, route: string, status: string) =>
    samples.get(series('paraph_http_requests_total', { method, route, status }))
  const durationCount = (method: string, route: string, status: string) =>
    samples.get(series('paraph_http_request_duration_seconds_count', { method, route, status }))

  it('200 with the counters of exactly the requests made, each under its route pattern', () => {
    assert.equal(requests('GET', '/v1/health', '200'), 3)
    assert.equal(requests('GET', '/v1/submissions/:id', '404'), 1)
    assert.equal(requests('GET', 'unmatched', '404'), 1)
    const all = [...samples.keys()].filter((s) => s.startsWith('paraph_http_requests_total{'))
    assert.equal(all.length, 3, all.join('\n'))
  })

  it('200 with a duration histogram per series: counts equal, buckets from 5 ms to 10 s', () => {
    assert.equal(durationCount('GET', '/v1/health', '200'), 3)
    assert.equal(durationCount('GET', '/v1/submissions/:id', '404'), 1)
    assert.equal(durationCount('GET', 'unmatched', '404'), 1)
    const labels = { method: 'GET', route: '/v1/health', status: '200' }
    const bucket = (le: string) =>
      samples.get(series('paraph_http_request_duration_seconds_bucket', { ...labels, le }))
    assert.equal(bucket('+Inf'), 3)
    assert.ok(bucket('0.005') !== undefined && bucket('10') === 3)
    assert.ok((samples.get(series('paraph_http_request_duration_seconds_sum', labels)) ?? -1) >= 0)
  })

  it('200 with the route label a registered pattern or "unmatched", never a URL or an id', () => {
    const routes = new Set(t.app.registeredRoutes.map((r) => r.split(' ')[1]))
    for (const line of text.split('\n').filter((l) => l.startsWith('paraph_http_'))) {
      const route = /route="([^"]*)"/.exec(line)?.[1]
      assert.ok(route === 'unmatched' || routes.has(route ?? ''), `route label of ${line}`)
      assert.doesNotMatch(line, /sub_a|sub_123|\/no\/such/)
    }
  })

  it("200 with prom-client's default process metrics, unprefixed", () => {
    assert.ok(samples.has('process_cpu_seconds_total'))
    assert.ok(samples.has('process_resident_memory_bytes'))
    assert.ok([...samples.keys()].some((s) => s.startsWith('nodejs_eventloop_lag_seconds')))
  })

  it('404 for any other path or method on the metrics listener, and the scrape is not counted', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/metrics/x'],
      ['GET', '/v1/health'],
      ['POST', '/metrics'],
      ['DELETE', '/metrics'],
    ] as const) {
      const res = await fetch(`${server.address}${path}`, { method })
      assert.equal(res.status, 404, `${method} ${path}`)
      await res.body?.cancel()
    }
    const again = (await scrape(server.address)).samples
    assert.equal(
      again.get(series('paraph_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })),
      1,
    )
  })

  it('200 from a second app in the same process with counters of its own (a registry per app)', async () => {
    const other = await startTestApp({ env: { METRICS_LISTEN: '127.0.0.1:0' } })
    const otherServer = await listenForMetrics(other)
    try {
      await other.app.inject({ url: '/healthz' })
      const otherSamples = (await scrape(otherServer.address)).samples
      assert.equal(
        otherSamples.get(
          series('paraph_http_requests_total', { method: 'GET', route: '/healthz', status: '200' }),
        ),
        1,
      )
      assert.equal(
        otherSamples.get(
          series('paraph_http_requests_total', { method: 'GET', route: '/v1/health', status: '200' }),
        ),
        undefined,
      )
    } finally {
      await otherServer.close()
      await other.close()
    }
  })
})

describe('METRICS_LISTEN unset', () => {
  it('no registry and no recording: deps.metrics is the no-op', async () => {
    const t = await startTestApp()
    try {
      assert.equal(t.config.metricsListen, undefined)
      assert.equal(t.deps.metrics, NO_METRICS)
      assert.equal(t.deps.metrics.registry, null)
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200)
    } finally {
      await t.close()
    }
  })
})
