// RequestSeries writes exactly what prom-client's own Counter and Histogram would for the same
// requests: same names, labels, cumulative buckets (a value on a bound counts in that bound), sums.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Counter, Histogram, Registry } from 'prom-client'
import { HTTP_BUCKETS, RequestSeries } from './request-series.ts'

const REQUESTS: Array<[string, string, number, number]> = [
  ['GET', '/v1/health', 200, 0.005],
  ['GET', '/v1/health', 200, 0.0051],
  ['GET', '/v1/health', 200, 0.0002],
  ['POST', '/v1/submissions', 201, 0.3],
  ['GET', 'unmatched', 404, 42],
  ['GET', '/v1/submissions/:id', 404, 10],
]

/** The exposition without its HELP lines (the help texts are ours). */
async function samples(registry: Registry): Promise<string> {
  return (await registry.metrics())
    .split('\n')
    .filter((line) => !line.startsWith('# HELP'))
    .join('\n')
}

describe('RequestSeries', () => {
  it("writes the text prom-client's Counter and Histogram write for the same requests", async () => {
    const ours = new Registry()
    const series = new RequestSeries(ours)
    const reference = new Registry()
    const labelNames = ['method', 'route', 'status']
    const count = new Counter({
      name: 'paraph_http_requests_total',
      help: 'x',
      labelNames,
      registers: [reference],
    })
    const duration = new Histogram({
      name: 'paraph_http_request_duration_seconds',
      help: 'x',
      labelNames,
      buckets: HTTP_BUCKETS,
      registers: [reference],
    })
    for (const [method, route, status, seconds] of REQUESTS) {
      series.record(method, route, status, seconds)
      const labels = { method, route, status: String(status) }
      count.inc(labels)
      duration.observe(labels, seconds)
    }
    assert.equal(await samples(ours), await samples(reference))
    assert.match(
      await ours.metrics(),
      /^paraph_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/health",status="200"\} 2$/m,
    )
  })

  it('writes the HELP and TYPE lines and no sample before the first request', async () => {
    const registry = new Registry()
    new RequestSeries(registry)
    const text = await registry.metrics()
    assert.match(text, /^# TYPE paraph_http_requests_total counter$/m)
    assert.match(text, /^# TYPE paraph_http_request_duration_seconds histogram$/m)
    assert.doesNotMatch(text, /^paraph_/m)
  })
})
