// Does Paraph's memory level off under a long mixed load? Memory was seen rising
// from 147 to 219 MB over 80 000 mixed requests while 100 000 reads did not move it. One
// `paraph serve --no-worker` takes the mix of soak-load.ts for PARAPH_SOAK_SECONDS (default 300);
// its VmRSS, its V8 heap (over --inspect) and its PDF readers' RSS are sampled 20 times, and the
// verdict compares the growth of the last third of the run with that of the first third.
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { connectInspector, type HeapInspector } from '../inspector.ts'
import { inThrowawaySchema } from '../postgres.ts'
import { childrenCpuMicros, cpuMicros, freePort, rssKiB, treeRssKiB } from '../processes.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { emptyProgress, runSoakLoad, SOAK_MIX, type SoakProgress, type SoakSetup } from '../soak-load.ts'
import { judgeSoak, type MemorySample, soakNotes } from '../soak-verdict.ts'
import { percentile } from '../stats.ts'
import {
  createSubmission,
  createTemplate,
  fromTemplateBody,
  inline,
  threeSignerBody,
} from '../submissions.ts'

const NAME = 'soak, mixed load'
const CONNECTIONS = 4
/** Samples after the first; the first two intervals are the warm-up, the rest split into thirds. */
const INTERVALS = 20

async function prepare(server: RunningServer): Promise<SoakSetup> {
  const source = inline(await a4())
  const templateId = await createTemplate(server, source)
  return {
    server,
    templateId,
    firstSubmissionId: await createSubmission(server, source),
    fromPdfBody: Buffer.from(JSON.stringify(threeSignerBody(source))),
    fromTemplateBody: Buffer.from(JSON.stringify(fromTemplateBody(templateId))),
  }
}

const mb = (bytes: number) => bytes / 1024 / 1024

async function sample(
  server: RunningServer,
  inspector: HeapInspector,
  atSeconds: number,
  progress: SoakProgress,
): Promise<MemorySample> {
  const rss = rssKiB(server.process) ?? 0
  const tree = treeRssKiB(server.process) ?? rss
  const heap = await inspector.heap()
  return {
    atSeconds,
    rssMB: rss / 1024,
    readersMB: (tree - rss) / 1024,
    heapUsedMB: mb(heap.usedBytes),
    requests: Object.values(progress.counts).reduce((sum, c) => sum + c.sent, 0),
    cpuMicros: cpuMicros(server.process) ?? 0,
  }
}

/** Runs the mix for `seconds` while sampling every seconds / INTERVALS. */
async function soak(setup: SoakSetup, inspector: HeapInspector, seconds: number, engine: string) {
  const progress = emptyProgress()
  const intervalMs = (seconds * 1000) / INTERVALS
  const started = performance.now()
  const end = started + seconds * 1000
  const load = runSoakLoad(setup, {
    connections: CONNECTIONS,
    until: () => performance.now() >= end,
    progress,
  })
  const samples = [await sample(setup.server, inspector, 0, progress)]
  for (let i = 1; i <= INTERVALS; i++) {
    await sleep(Math.max(0, started + i * intervalMs - performance.now()))
    const next = await sample(setup.server, inspector, (i * intervalMs) / 1000, progress)
    samples.push(next)
    console.error(
      `bench: soak ${engine} ${next.atSeconds.toFixed(0)} s: ${next.requests} requests, RSS ${next.rssMB.toFixed(1)} MB, heap used ${next.heapUsedMB.toFixed(1)} MB, load average ${loadavg()[0]?.toFixed(1)}`,
    )
  }
  await load
  return { progress, samples, elapsedMs: performance.now() - started }
}

async function soakCase(ctx: BenchContext, engine: string, databaseUrl: string | null): Promise<LimitRow> {
  const inspectPort = await freePort()
  const server = await startParaph(databaseUrl, {}, [`--inspect=127.0.0.1:${inspectPort}`])
  try {
    const inspector = await connectInspector(inspectPort)
    try {
      const setup = await prepare(server)
      const liveBefore = await inspector.liveHeap()
      const cpuBefore = { own: cpuMicros(server.process), children: childrenCpuMicros(server.process) }
      const run = await soak(setup, inspector, ctx.soakSeconds, engine)
      const cpuAfter = { own: cpuMicros(server.process), children: childrenCpuMicros(server.process) }
      const liveAfter = await inspector.liveHeap()
      const rssAfterGc = (rssKiB(server.process) ?? 0) / 1024
      const counts = Object.values(run.progress.counts)
      const ok = counts.reduce((sum, c) => sum + c.ok, 0)
      const sent = counts.reduce((sum, c) => sum + c.sent, 0)
      const perRequest = (after: number | null, before: number | null) =>
        after === null || before === null ? null : (after - before) / Math.max(1, sent)
      const { latenciesMs, firstFailure } = run.progress
      const verdict = judgeSoak(run.samples, INTERVALS)
      const first = run.samples[0]!
      const last = run.samples.at(-1)!
      return {
        scenario: NAME,
        case: `${engine}, ${ctx.soakSeconds} s`,
        figures: {
          ok,
          sent,
          rps: ok / (run.elapsedMs / 1000),
          latencyLoad: `${CONNECTIONS} at once`,
          p50Ms: percentile(latenciesMs, 50),
          p99Ms: percentile(latenciesMs, 99),
          maxMs: percentile(latenciesMs, 100),
          cpuMicrosPerRequest: perRequest(cpuAfter.own, cpuBefore.own),
          childCpuMicrosPerRequest: perRequest(cpuAfter.children, cpuBefore.children),
        },
        reference: `RSS ${first.rssMB.toFixed(0)} → ${last.rssMB.toFixed(0)} MB`,
        notes: [
          ...soakNotes(run.samples, verdict),
          `live heap after a forced GC: ${mb(liveBefore.usedBytes).toFixed(1)} MB before the run, ${mb(liveAfter.usedBytes).toFixed(1)} MB after it (RSS then ${rssAfterGc.toFixed(1)} MB)`,
          `requests: ${SOAK_MIX.map(([op]) => `${op} ${run.progress.counts[op].ok}/${run.progress.counts[op].sent}`).join(', ')}`,
          ...(firstFailure ? [`first failure: ${firstFailure}`] : []),
        ],
        judged: verdict.judged,
      }
    } finally {
      inspector.close()
    }
  } finally {
    await server.stop()
  }
}

export const soakScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description: `one paraph serve under ${CONNECTIONS} connections of ${SOAK_MIX.map(([op, share]) => `${share}% ${op}`).join(', ')}; memory sampled ${INTERVALS} times`,
  goal: 'RSS levels off: the last third of the run (after a 10% warm-up) grows less than half as much as the first third, or under 4 MB',
  run: async (ctx) => {
    const rows: Array<LimitRow | SkippedRow> = [await soakCase(ctx, 'sqlite', null)]
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => soakCase(ctx, 'postgres', url))
    rows.push(postgres ?? { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' })
    return rows
  },
}
