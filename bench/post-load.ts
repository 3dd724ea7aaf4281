// POST load for creation rows, where autocannon fits badly: every request needs a fresh
// Idempotency-Key (its [<id>] replacement re-encodes a 4 MB body as a string per request), and the
// latencies judged are a few milliseconds, where its whole-millisecond histogram is coarse.
// Latency runs from handing a request to the client until its whole answer has arrived.
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { Pool } from 'undici'
import { percentile } from './stats.ts'

export interface PostRequest {
  origin: string
  path: string
  headers: Record<string, string>
  body: Buffer
  expectedStatus: number
}

export interface PostRun {
  latenciesMs: number[]
  ok: number
  sent: number
  elapsedMs: number
  /** The first unexpected answer or error, to say why a row failed. */
  firstFailure: string | null
}

export interface PostSummary {
  ok: number
  sent: number
  /** Expected answers per second over the run. */
  rps: number
  p50Ms: number
  p99Ms: number
  maxMs: number
}

export function summarize(run: PostRun): PostSummary {
  return {
    ok: run.ok,
    sent: run.sent,
    rps: run.ok / Math.max(0.001, run.elapsedMs / 1000),
    p50Ms: percentile(run.latenciesMs, 50),
    p99Ms: percentile(run.latenciesMs, 99),
    maxMs: percentile(run.latenciesMs, 100),
  }
}

async function send(pool: Pool, request: PostRequest, run: PostRun): Promise<void> {
  const started = performance.now()
  run.sent++
  try {
    const response = await pool.request({
      method: 'POST',
      path: request.path,
      headers: { ...request.headers, 'idempotency-key': randomUUID() },
      body: request.body,
    })
    const text = await response.body.text()
    run.latenciesMs.push(performance.now() - started)
    if (response.statusCode === request.expectedStatus) run.ok++
    else run.firstFailure ??= `HTTP ${response.statusCode}: ${text.slice(0, 200)}`
  } catch (error) {
    run.latenciesMs.push(performance.now() - started)
    run.firstFailure ??= error instanceof Error ? error.message : String(error)
  }
}

async function withPool(
  request: PostRequest,
  connections: number,
  drive: (pool: Pool, run: PostRun) => Promise<void>,
): Promise<PostRun> {
  const pool = new Pool(request.origin, { connections, headersTimeout: 60_000, bodyTimeout: 60_000 })
  const run: PostRun = { latenciesMs: [], ok: 0, sent: 0, elapsedMs: 0, firstFailure: null }
  const started = performance.now()
  try {
    await drive(pool, run)
  } finally {
    run.elapsedMs = performance.now() - started
    await pool.close()
  }
  return run
}

/** `connections` clients, each sending its next request as soon as the previous one is answered. */
export function closedLoop(request: PostRequest, options: { seconds: number; connections: number }) {
  const end = performance.now() + options.seconds * 1000
  return withPool(request, options.connections, async (pool, run) => {
    const client = async () => {
      while (performance.now() < end) await send(pool, request, run)
    }
    await Promise.all(Array.from({ length: options.connections }, client))
  })
}

/**
 * Requests started at a fixed rate whether or not earlier ones are answered (open loop), so a
 * slow answer cannot hold back the requests that would have seen it. `connections` bounds how
 * many are in flight; past it they queue in the client, and the queueing counts in their latency.
 */
export function fixedRate(
  request: PostRequest,
  options: { seconds: number; rate: number; connections: number },
) {
  const intervalMs = 1000 / options.rate
  const count = Math.max(1, Math.round(options.seconds * options.rate))
  return withPool(request, options.connections, async (pool, run) => {
    const start = performance.now()
    const inFlight: Promise<void>[] = []
    for (let i = 0; i < count; i++) {
      const wait = start + i * intervalMs - performance.now()
      if (wait > 0) await sleep(wait)
      inFlight.push(send(pool, request, run))
    }
    await Promise.all(inFlight)
  })
}

/** `count` requests sent at once, each on its own connection. */
export function burst(request: PostRequest, count: number) {
  return withPool(request, count, async (pool, run) => {
    await Promise.all(Array.from({ length: count }, () => send(pool, request, run)))
  })
}
