// POST /v1/verify of a real 100-page final (3.3 MB original from from_pdf, signed by three signers,
// sealed by the worker, downloaded through the API), sent raw (application/pdf), beside its floor:
// bare Fastify receiving the same body and hashing it with SHA-256 (verify-floor-server.ts). Per
// engine: a warm-up, a closed loop for throughput, then an open loop at half that rate whose p50 is
// judged (< 100 ms, docs/benchmarks.md), the floor measured the same way.
import { setTimeout as sleep } from 'node:timers/promises'
import { hundredPages } from '../../test/fixtures/pdfs.ts'
import { closedLoop, fixedRate, type PostRequest, type PostSummary, summarize } from '../post-load.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph, startVerifyFloor } from '../servers.ts'
import { createToSign, sign, signBody, submissionState } from '../signing.ts'
import { inline, jsonHeaders } from '../submissions.ts'

const NAME = 'POST /v1/verify'
const CONNECTIONS = 4
const WARM_UP_SECONDS = 3
const CLOSED_SECONDS = 6
const FIXED_SECONDS = 6
const FIXED_RATE_CONNECTIONS = 16
const DEADLINE_MS = 120_000

/** A 100-page submission signed by its three signers, finalized by the worker; its final PDF. */
async function hundredPageFinal(server: RunningServer): Promise<Buffer> {
  const { id, slugs } = await createToSign(server, inline(await hundredPages(3_300_000)))
  for (const [i, slug] of slugs.entries()) await sign(server, slug, signBody(i))
  const started = Date.now()
  while ((await submissionState(server, id)).status !== 'completed') {
    if (Date.now() - started > DEADLINE_MS) throw new Error(`submission ${id} not completed in time`)
    await sleep(50)
  }
  const documents = await fetch(`${server.process.baseUrl}/v1/submissions/${id}/documents`, {
    headers: jsonHeaders(server),
  })
  const { signed_pdf_url: url } = (await documents.json()) as { signed_pdf_url: string }
  const final = await fetch(new URL(new URL(url).pathname, server.process.baseUrl))
  if (final.status !== 200) throw new Error(`final PDF download answered ${final.status}`)
  return Buffer.from(await final.arrayBuffer())
}

function requestFor(server: RunningServer, pdf: Buffer): PostRequest {
  return {
    origin: server.process.baseUrl,
    path: '/v1/verify',
    headers: {
      'content-type': 'application/pdf',
      ...(server.bearer ? { authorization: server.bearer } : {}),
    },
    body: pdf,
    expectedStatus: 200,
  }
}

/** Throughput (closed loop), then latency at half of it (open loop). */
async function measure(ctx: BenchContext, request: PostRequest) {
  await closedLoop(request, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS })
  const closed = closedLoop(request, { seconds: CLOSED_SECONDS, connections: CONNECTIONS })
  const closedRun = await closed
  const throughput = summarize(closedRun)
  const rate = Math.max(1, throughput.rps * ctx.fixedRateShare)
  const openRun = await fixedRate(request, {
    seconds: FIXED_SECONDS,
    rate,
    connections: FIXED_RATE_CONNECTIONS,
  })
  return {
    throughput,
    open: summarize(openRun),
    rate,
    failure: closedRun.firstFailure ?? openRun.firstFailure,
  }
}

const figures = (s: PostSummary) =>
  `p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms, ${s.rps.toFixed(0)} req/s`

async function runEngine(ctx: BenchContext, engine: string, databaseUrl: string | null): Promise<LimitRow> {
  const server = await startParaph(databaseUrl, {}, [], { worker: true })
  try {
    const pdf = await hundredPageFinal(server)
    const { headers, body } = requestFor(server, pdf)
    const check = await fetch(`${server.process.baseUrl}/v1/verify`, { method: 'POST', headers, body })
    const verdict = (await check.json()) as { valid?: boolean }
    if (verdict.valid !== true) throw new Error(`the final did not verify: ${JSON.stringify(verdict)}`)
    const paraph = await measure(ctx, requestFor(server, pdf))
    const floorServer = await startVerifyFloor()
    let floor: Awaited<ReturnType<typeof measure>>
    try {
      floor = await measure(ctx, requestFor(floorServer, pdf))
    } finally {
      await floorServer.stop()
    }
    return {
      scenario: NAME,
      case: `${engine}, 100 p. final ${(pdf.length / 1e6).toFixed(1)} MB raw`,
      figures: {
        ok: paraph.throughput.ok + paraph.open.ok,
        sent: paraph.throughput.sent + paraph.open.sent,
        rps: paraph.throughput.rps,
        latencyLoad: `${paraph.rate.toFixed(1)}/s`,
        p50Ms: paraph.open.p50Ms,
        p99Ms: paraph.open.p99Ms,
        maxMs: paraph.open.maxMs,
        cpuMicrosPerRequest: null,
        childCpuMicrosPerRequest: null,
      },
      reference: `floor (bare Fastify + SHA-256): ${figures({ ...floor.open, rps: floor.throughput.rps })}`,
      notes: [paraph.failure, floor.failure]
        .filter((f): f is string => f !== null)
        .map((f) => `first failure: ${f}`),
      judged: { label: 'p50', value: paraph.open.p50Ms, unit: 'ms', max: 100 },
    }
  } finally {
    await server.stop()
  }
}

export const verifyScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description: `verify a sealed 100-page final sent raw, ${CONNECTIONS} connections closed loop, then open loop at half that rate; floor: bare Fastify hashing the same body`,
  goal: 'p50 < 100 ms',
  run: async (ctx) => {
    const rows: Array<LimitRow | SkippedRow> = [await runEngine(ctx, 'sqlite', null)]
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => runEngine(ctx, 'postgres', url))
    rows.push(postgres ?? { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' })
    return rows
  },
}
