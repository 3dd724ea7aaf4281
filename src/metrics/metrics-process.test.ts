// METRICS_LISTEN on real processes (docs/operations.md#metrics): `paraph serve`, `serve
// --no-worker` and `paraph worker` each open their own metrics listener; unset, none does; a bad
// value or a busy address stops the start with one line naming the variable.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createSchema, dropSchema, ENGINE, testEnv } from '../../test/harness.ts'
import { scrape, series } from '../../test/metrics.ts'
import { ParaphProcess, prepareDatabase, runParaph, startServe } from '../../test/paraph-process.ts'

const METRICS_ON = { METRICS_LISTEN: '127.0.0.1:0' }

/** The metrics address a process logged once its listener was bound. */
function metricsAddress(process: ParaphProcess): Promise<string> {
  return process
    .waitFor(/"metrics_address":"(http:\/\/127\.0\.0\.1:\d+)"/)
    .then(([, address]) => address as string)
}

describe('METRICS_LISTEN on paraph processes', () => {
  let dataDir: string
  let schema: string | undefined
  let env: Record<string, string>
  let key: string
  const running: ParaphProcess[] = []
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'paraph-metrics-'))
    schema = ENGINE === 'postgres' ? await createSchema() : undefined
    env = testEnv(dataDir, schema)
    key = await prepareDatabase(env)
  })
  after(async () => {
    await Promise.all(running.map((p) => p.stop()))
    if (schema) await dropSchema(schema)
    await rm(dataDir, { recursive: true, force: true })
  })

  it('serve: GET /metrics on its own port counts the API requests it answered', async () => {
    const { process: serve, base } = await startServe([], { ...env, ...METRICS_ON })
    running.push(serve)
    const address = await metricsAddress(serve)
    assert.notEqual(new URL(address).port, new URL(base).port)
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/v1/health`, { headers: { authorization: `Bearer ${key}` } })
      assert.equal(res.status, 200)
    }
    assert.equal((await fetch(`${base}/metrics`)).status, 404, 'not on the API port')
    const { samples } = await scrape(address)
    const health = series('paraph_http_requests_total', { method: 'GET', route: '/v1/health', status: '200' })
    assert.equal(samples.get(health), 2)
    assert.equal(
      samples.get(series('paraph_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })),
      1,
    )
    assert.ok(samples.has('process_cpu_seconds_total'))
  })

  it('serve --no-worker and worker: each its own listener with the process metrics', async () => {
    const { process: api } = await startServe(['--no-worker'], { ...env, ...METRICS_ON })
    running.push(api)
    const worker = new ParaphProcess(['worker'], { ...env, ...METRICS_ON })
    running.push(worker)
    const addresses = [await metricsAddress(api), await metricsAddress(worker)]
    assert.notEqual(addresses[0], addresses[1])
    for (const address of addresses) {
      const { samples } = await scrape(address)
      assert.ok(samples.has('process_resident_memory_bytes'), address)
      assert.equal((await fetch(`${address}/`)).status, 404)
    }
  })

  it('unset: no metrics listener is opened', async () => {
    const { process: serve } = await startServe([], env)
    running.push(serve)
    assert.deepEqual(serve.logLines(/metrics/), [])
    assert.doesNotMatch(serve.output, /metrics_address/)
  })

  it('exit 1 with one line naming METRICS_LISTEN for a bad value or an address in use', async () => {
    const bad = await runParaph(['worker'], { ...env, METRICS_LISTEN: '9464' })
    assert.equal(bad.code, 1)
    assert.match(bad.stderr, /^.*METRICS_LISTEN must be HOST:PORT.*\n?$/m)
    const busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    try {
      const port = (busy.address() as { port: number }).port
      const inUse = await runParaph(['worker'], { ...env, METRICS_LISTEN: `127.0.0.1:${port}` })
      assert.equal(inUse.code, 1)
      assert.match(
        inUse.stderr,
        new RegExp(`METRICS_LISTEN: cannot listen on 127\\.0\\.0\\.1:${port} \\(.*EADDRINUSE`),
      )
    } finally {
      busy.close()
    }
  })
})
