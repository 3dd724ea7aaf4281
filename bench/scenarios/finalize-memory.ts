// Finalizing a 50 MB, 500-page PDF (3 signers, by URL: too big to go inline) against
// `paraph serve` with its worker. While it finalizes, this process samples the RSS of the server
// and of each of its children every 20 ms (the finalizer is told apart by its command line), and
// sends GET /v1/health one after another: the longest answer bounds how long the server's event
// loop was blocked at a time. The server also runs with --inspect, and its own event-loop delay
// histogram (perf_hooks.monitorEventLoopDelay, 10 ms resolution) is read over the inspector: the
// longest block seen from inside, without the network or this process being descheduled. The same
// health loop runs for 3 s before the last signature, as a control of what the machine does idle.
// Judged: the larger of the server's and the finalizer's peak RSS < 600 MB, and the longest
// event-loop delay inside the server < 100 ms (the longest health answer is printed beside it).
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { noisyPages } from '../../test/fixtures/pdfs.ts'
import { connectInspector, type HeapInspector } from '../inspector.ts'
import { servePdf } from '../pdf-server.ts'
import { inThrowawaySchema } from '../postgres.ts'
import { childrenRssKiB, commandLine, freePort, rssKiB } from '../processes.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { createToSign, sign, signBody, submissionState } from '../signing.ts'
import { percentile } from '../stats.ts'
import { jsonHeaders } from '../submissions.ts'

const NAME = 'finalization memory, 500 pages 50 MB'
const PAGES = 500
const BYTES = 50_000_000
const SAMPLE_MS = 20
const DEADLINE_MS = 300_000

const mb = (kib: number) => kib / 1024

interface Peaks {
  serverKiB: number
  finalizerKiB: number
  otherChildrenKiB: number
  samples: number
}

/** Samples RSS until `done` resolves; the finalizer is the child whose command line names it. */
async function sampleRss(server: RunningServer, done: Promise<unknown>): Promise<Peaks> {
  const peaks: Peaks = { serverKiB: 0, finalizerKiB: 0, otherChildrenKiB: 0, samples: 0 }
  const names = new Map<number, string>()
  let finished = false
  void done.finally(() => {
    finished = true
  })
  while (!finished) {
    peaks.serverKiB = Math.max(peaks.serverKiB, rssKiB(server.process) ?? 0)
    let others = 0
    for (const { pid, rssKiB: kib } of childrenRssKiB(server.process)) {
      if (!names.has(pid)) names.set(pid, commandLine(pid))
      if (/finaliz/i.test(names.get(pid)!)) peaks.finalizerKiB = Math.max(peaks.finalizerKiB, kib)
      else others += kib
    }
    peaks.otherChildrenKiB = Math.max(peaks.otherChildrenKiB, others)
    peaks.samples++
    await sleep(SAMPLE_MS)
  }
  return peaks
}

/** GET /v1/health one after another until `done` resolves; each answer's latency in ms. */
async function healthLoop(server: RunningServer, done: Promise<unknown>) {
  const latencies: number[] = []
  let failed = 0
  let finished = false
  void done.finally(() => {
    finished = true
  })
  while (!finished) {
    const started = performance.now()
    const response = await fetch(`${server.process.baseUrl}/v1/health`, { headers: jsonHeaders(server) })
    await response.arrayBuffer()
    latencies.push(performance.now() - started)
    if (response.status !== 200) failed++
  }
  return { latencies, failed }
}

const START_LOOP_DELAY = `(() => {
  const histogram = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  globalThis.__benchLoopDelay = histogram
  return true
})()`
const READ_LOOP_DELAY = `(() => {
  const histogram = globalThis.__benchLoopDelay
  histogram.disable()
  return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 }
})()`

/** The server's own event-loop delay over `work`: its longest and its p99, in ms. */
async function loopDelayOver(inspector: HeapInspector, work: () => Promise<void>) {
  await inspector.evaluate(START_LOOP_DELAY)
  await work()
  return (await inspector.evaluate(READ_LOOP_DELAY)) as { maxMs: number; p99Ms: number }
}

/** GET /v1/health one after another for `ms` with nothing else going on: the machine's own noise. */
async function idleHealth(server: RunningServer, ms: number) {
  return healthLoop(server, sleep(ms))
}

async function untilCompleted(server: RunningServer, id: string): Promise<number> {
  const started = performance.now()
  for (;;) {
    const state = await submissionState(server, id)
    if (state.status === 'completed') return performance.now() - started
    if (performance.now() - started > DEADLINE_MS) {
      throw new Error(
        `submission ${id} not completed within ${DEADLINE_MS / 1000} s (status ${state.status})`,
      )
    }
    await sleep(50)
  }
}

async function runEngine(pdf: Uint8Array, databaseUrl: string | null, engine: string): Promise<LimitRow[]> {
  const inspectPort = await freePort()
  const server = await startParaph(
    databaseUrl,
    { ALLOW_PRIVATE_NETWORK_URLS: 'true' },
    [`--inspect=127.0.0.1:${inspectPort}`],
    { worker: true },
  )
  const pdfServer = await servePdf(pdf)
  let inspector: HeapInspector | undefined
  try {
    inspector = await connectInspector(inspectPort)
    let idle: Awaited<ReturnType<typeof healthLoop>> = { latencies: [], failed: 0 }
    const { id, slugs } = await createToSign(server, { pdf_url: pdfServer.url })
    await sign(server, slugs[0]!, signBody(0))
    await sign(server, slugs[1]!, signBody(1))
    await sleep(200)
    const idleDelay = await loopDelayOver(inspector, async () => {
      idle = await idleHealth(server, 3_000)
    })
    const idleKiB = rssKiB(server.process) ?? 0
    let finish: () => void = () => {}
    const done = new Promise<void>((resolve) => {
      finish = resolve
    })
    const peaksRun = sampleRss(server, done)
    const healthRun = healthLoop(server, done)
    let finalizeMs = 0
    const delay = await loopDelayOver(inspector, async () => {
      try {
        await sign(server, slugs[2]!, signBody(2))
        finalizeMs = await untilCompleted(server, id)
      } finally {
        finish()
      }
    })
    const [peaks, health] = await Promise.all([peaksRun, healthRun])
    const { latencies } = health
    const idleMax = Math.max(...idle.latencies)
    const maxMs = Math.max(...latencies)
    const peakMb = mb(Math.max(peaks.serverKiB, peaks.finalizerKiB))
    const memoryNote = `peak RSS: server ${mb(peaks.serverKiB).toFixed(0)} MB (${mb(idleKiB).toFixed(0)} MB before), finalizer ${mb(peaks.finalizerKiB).toFixed(0)} MB, other children ${mb(peaks.otherChildrenKiB).toFixed(0)} MB; ${peaks.samples} samples over ${(finalizeMs / 1000).toFixed(1)} s of finalization`
    const figures = {
      ok: latencies.length - health.failed,
      sent: latencies.length,
      rps: null,
      latencyLoad: 'GET /v1/health, 1 at a time',
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs,
      cpuMicrosPerRequest: null,
      childCpuMicrosPerRequest: null,
    }
    const label = `${engine}, ${PAGES} p. ${(pdf.length / 1e6).toFixed(1)} MB`
    return [
      {
        scenario: NAME,
        case: `${label}, peak RSS`,
        figures,
        reference: `server ${mb(peaks.serverKiB).toFixed(0)} MB, finalizer ${mb(peaks.finalizerKiB).toFixed(0)} MB`,
        notes: [memoryNote],
        judged: { label: 'peak RSS', value: peakMb, unit: 'MB', max: 600 },
      },
      {
        scenario: NAME,
        case: `${label}, event-loop delay`,
        figures,
        reference: `idle: loop ${idleDelay.maxMs.toFixed(0)} ms, GET ${idleMax.toFixed(0)} ms`,
        notes: [
          `GET /v1/health during finalization: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${maxMs.toFixed(1)} ms over ${latencies.length}; idle for 3 s before: p99 ${percentile(idle.latencies, 99).toFixed(1)} ms, max ${idleMax.toFixed(1)} ms`,
          `server event-loop delay (monitorEventLoopDelay) during finalization: max ${delay.maxMs.toFixed(1)} ms, p99 ${delay.p99Ms.toFixed(1)} ms; idle before: max ${idleDelay.maxMs.toFixed(1)} ms`,
        ],
        judged: { label: 'loop max', value: delay.maxMs, unit: 'ms', max: 100 },
      },
    ]
  } finally {
    inspector?.close()
    await pdfServer.close()
    await server.stop()
  }
}

export const finalizeMemoryScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'the last of 3 signers signs a 500-page PDF; RSS sampled every 20 ms, GET /v1/health meanwhile',
  goal: "peak RSS of the server and of the finalizer < 600 MB each; the server's event loop never blocked 100 ms or more (longest GET /v1/health beside it)",
  run: async (ctx: BenchContext) => {
    const pdf = await noisyPages(PAGES, BYTES)
    const rows: Array<LimitRow | SkippedRow> = await runEngine(pdf, null, 'sqlite')
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => runEngine(pdf, url, 'postgres'))
    rows.push(...(postgres ?? [{ scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }]))
    return rows
  },
}
