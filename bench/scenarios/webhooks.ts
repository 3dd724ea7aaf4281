// Issue #13, Performance. Two rows per engine:
// - throughput: 1 000 deliveries (100 submissions × 10 endpoints on one local receiver answering
//   200 at once) made while `paraph serve --no-worker` takes the API calls, then `paraph worker`
//   started and timed from its "paraph worker started" line to the receiver's 1 000th distinct
//   delivery (events.publish and the dispatcher both in the timing). Beside it, the floor measured
//   the same way in the same run: a bare undici loop in its own process POSTing the same signed
//   bodies to the same receiver with the same 20 requests at once (bench/webhook-floor.ts), and a
//   durable floor: the same loop also writing, after each answer, the attempt's row and the
//   delivery's state in one transaction through the raw driver on Paraph's own tables — the least a
//   delivery service that keeps a history must do. The verdict is held to the bare floor (issue).
// - latency: `paraph serve` with its worker and dispatcher, one endpoint on submission.cancelled;
//   100 cancels one after another (25 ms apart), each timed from the DELETE's answer (its
//   transaction has committed by then) to the receiver getting the event.
import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { HookSink } from '../hook-sink.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { percentile } from '../stats.ts'
import { createTemplate, fromTemplateBody, inline, jsonHeaders } from '../submissions.ts'
import { openBenchDatabase, timedRun } from '../worker-runs.ts'

const NAME = 'webhooks: deliveries to a local receiver'
const ENDPOINTS = 10
const SUBMISSIONS = 100
const DELIVERIES = ENDPOINTS * SUBMISSIONS
const CONCURRENCY = 20 // the dispatcher's 2 per endpoint × 10 endpoints
const MIN_RATE = 500
const LATENCY_EVENTS = 100
const PRIVATE = { ALLOW_PRIVATE_NETWORK_URLS: 'true' }

async function api(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    method,
    headers:
      body === undefined
        ? { authorization: server.bearer ?? '' }
        : { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (response.status >= 300)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as Record<string, unknown>
}

async function submissions(server: RunningServer, n: number): Promise<string[]> {
  const template = await createTemplate(server, inline(await a4()))
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const created = await api(server, 'POST', '/v1/submissions', {
      ...fromTemplateBody(template),
      send_email: false,
    })
    ids.push(created.id as string)
  }
  return ids
}

/** One drain of the pending deliveries by `paraph worker` or the floor, timed from its start line. */
async function drain(sink: HookSink, dir: string, name: string, args: string[], env: Record<string, string>) {
  sink.reset()
  const run = await timedRun(dir, name, args, env, (child) =>
    sink
      .waitFor(() => sink.distinct() >= DELIVERIES, 60_000)
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${readFileSync(child.logFile, 'utf8').slice(-3000)}`)
      }),
  )
  const lastAt = Math.max(...sink.arrivals.map((a) => a.at))
  return { ms: lastAt - run.startedAt, arrivals: sink.arrivals.length, cpu: run.cpuMicros }
}

async function deliveryBodies(databaseUrl: string, secrets: Map<string, { url: string; secret: string }>) {
  const database = openBenchDatabase(databaseUrl)
  try {
    const rows = await database.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id', 'body', 'state'])
      .orderBy('id')
      .execute()
    return rows.map((r) => ({
      ...secrets.get(r.endpoint_id)!,
      id: r.id,
      endpointId: r.endpoint_id,
      body: r.body,
      state: r.state,
    }))
  } finally {
    await database.close()
  }
}

async function throughput(sink: HookSink, databaseUrl: string | null, engine: string): Promise<LimitRow> {
  // One PARAPH_SECRET for both processes: the worker unseals the secrets the API sealed.
  const secret = randomBytes(20).toString('hex')
  const paraph = await startParaph(databaseUrl, { ...PRIVATE, PARAPH_SECRET: secret })
  const dir = await mkdtemp(join(tmpdir(), 'paraph-bench-hooks-'))
  try {
    const secrets = new Map<string, { url: string; secret: string }>()
    for (let i = 0; i < ENDPOINTS; i++) {
      const url = sink.url(`/e${i}`)
      const created = await api(paraph, 'POST', '/v1/webhook_endpoints', {
        url,
        events: ['submission.created'],
      })
      secrets.set(created.id as string, { url, secret: created.secret as string })
    }
    await submissions(paraph, SUBMISSIONS)
    const worker = await drain(sink, dir, 'paraph-worker', ['bin/paraph.mjs', 'worker'], {
      PUBLIC_URL: 'http://127.0.0.1:8080',
      DATA_DIR: dir,
      DATABASE_URL: paraph.databaseUrl!,
      PARAPH_SECRET: secret,
      LOG_LEVEL: 'info',
      ...PRIVATE,
    })
    const bodies = await deliveryBodies(paraph.databaseUrl!, secrets)
    if (bodies.length !== DELIVERIES)
      throw new Error(`${bodies.length} deliveries made, expected ${DELIVERIES}`)
    const file = join(dir, 'deliveries.json')
    await writeFile(file, JSON.stringify(bodies))
    const floor = await drain(
      sink,
      dir,
      'webhook-floor',
      ['--import', 'tsx', 'bench/webhook-floor.ts', file, String(CONCURRENCY)],
      {},
    )
    // The durable floor writes each attempt's row afresh: the worker's rows go first.
    const database = openBenchDatabase(paraph.databaseUrl!)
    await database.db.deleteFrom('webhook_attempts').execute()
    await database.close()
    const durable = await drain(
      sink,
      dir,
      'webhook-durable-floor',
      ['--import', 'tsx', 'bench/webhook-floor.ts', file, String(CONCURRENCY), paraph.databaseUrl!],
      {},
    )
    const rate = (DELIVERIES * 1000) / worker.ms
    const floorRate = (DELIVERIES * 1000) / floor.ms
    const durableRate = (DELIVERIES * 1000) / durable.ms
    // Pass: ≥ 500/s and ≥ 50 % of the floor's rate, i.e. all delivered within both times.
    const max = Math.min((DELIVERIES * 1000) / MIN_RATE, floor.ms * 2)
    return {
      scenario: NAME,
      case: `${engine}, ${DELIVERIES} deliveries`,
      figures: {
        ok: DELIVERIES,
        sent: DELIVERIES,
        rps: rate,
        latencyLoad: `${DELIVERIES} queued`,
        p50Ms: null,
        p99Ms: null,
        maxMs: worker.ms,
        cpuMicrosPerRequest: worker.cpu === null ? null : worker.cpu / DELIVERIES,
        childCpuMicrosPerRequest: null,
      },
      reference: `floor ${floor.ms} ms (${floorRate.toFixed(0)}/s); durable floor ${durable.ms} ms (${durableRate.toFixed(0)}/s)`,
      notes: [
        `${DELIVERIES} delivered ${worker.ms} ms after the worker's start line: ${rate.toFixed(0)}/s, ${((100 * rate) / floorRate).toFixed(0)} % of the floor's ${floorRate.toFixed(0)}/s (${worker.arrivals - DELIVERIES} repeat(s)); worker CPU ${worker.cpu === null ? '?' : (worker.cpu / DELIVERIES).toFixed(0)} µs per delivery, events.publish included`,
        `durable floor (the same loop writing each attempt's row and the delivery's state in one transaction through the raw driver): ${durable.ms} ms, ${durableRate.toFixed(0)}/s; Paraph reaches ${((100 * rate) / durableRate).toFixed(0)} % of it; floor process CPU ${floor.cpu === null ? '?' : (floor.cpu / DELIVERIES).toFixed(0)} µs, durable ${durable.cpu === null ? '?' : (durable.cpu / DELIVERIES).toFixed(0)} µs per delivery`,
      ],
      judged: {
        label: 'all delivered',
        value: worker.ms,
        max,
        unit: 'ms',
        derivation: `min(${DELIVERIES} at ${MIN_RATE}/s, 2 × floor)`,
      },
    }
  } finally {
    await paraph.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

async function latency(sink: HookSink, databaseUrl: string | null, engine: string): Promise<LimitRow[]> {
  const paraph = await startParaph(databaseUrl, PRIVATE, [], { worker: true })
  try {
    await api(paraph, 'POST', '/v1/webhook_endpoints', {
      url: sink.url('/latency'),
      events: ['submission.cancelled'],
    })
    const ids = await submissions(paraph, LATENCY_EVENTS)
    sink.reset()
    const committed = new Map<string, number>()
    for (const id of ids) {
      await api(paraph, 'DELETE', `/v1/submissions/${id}`)
      committed.set(id, Date.now())
      await sleep(25)
    }
    await sink.waitFor(() => sink.arrivals.length >= LATENCY_EVENTS, 30_000)
    const first = new Map<string, number>()
    for (const a of sink.arrivals) if (!first.has(a.submissionId)) first.set(a.submissionId, a.at)
    const latencies = ids.map((id) => first.get(id)! - committed.get(id)!)
    const p50 = percentile(latencies, 50)
    const p99 = percentile(latencies, 99)
    const figures = {
      ok: first.size,
      sent: LATENCY_EVENTS,
      rps: null,
      latencyLoad: 'one at a time, 25 ms apart',
      p50Ms: p50,
      p99Ms: p99,
      maxMs: Math.max(...latencies),
      cpuMicrosPerRequest: null,
      childCpuMicrosPerRequest: null,
    }
    const row = (label: string, value: number, max: number): LimitRow => ({
      scenario: NAME,
      case: `${engine}, commit → first attempt ${label}`,
      figures,
      reference: 'DELETE /v1/submissions/{id} answered → the receiver has submission.cancelled',
      notes: [],
      judged: { label, value, max, unit: 'ms' },
    })
    return [row('p50', p50, 100), row('p99', p99, 500)]
  } finally {
    await paraph.stop()
  }
}

export const webhooksScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'paraph worker delivering 1 000 queued webhook deliveries (100 events × 10 endpoints) to a local receiver; then paraph serve from a cancel’s commit to the receiver',
  goal: `≥ ${MIN_RATE} deliveries/s and ≥ 50 % of a bare undici loop's rate (same bodies, same receiver, ${CONCURRENCY} at once); commit → first attempt p50 < 100 ms, p99 < 500 ms`,
  run: async (ctx: BenchContext) => {
    const sink = await HookSink.start()
    try {
      const rows: Array<LimitRow | SkippedRow> = [
        await throughput(sink, null, 'sqlite'),
        ...(await latency(sink, null, 'sqlite')),
      ]
      // Each measurement on an empty schema of its own (serve creates its first account there).
      const skipped = { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }
      const pgThroughput = await inThrowawaySchema(ctx.postgresUrl, (url) =>
        throughput(sink, url, 'postgres'),
      )
      rows.push(pgThroughput ?? skipped)
      const pgLatency = await inThrowawaySchema(ctx.postgresUrl, (url) => latency(sink, url, 'postgres'))
      if (pgLatency) rows.push(...pgLatency)
      return rows
    } finally {
      await sink.stop()
    }
  },
}
