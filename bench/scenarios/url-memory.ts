// Paraph's resident memory while ten 40 MB PDFs arrive by URL at once. Downloads
// stream to temp files and long-lived child processes parse them, so the server's own RSS should
// stay far below 10 × 40 MB. Its VmRSS is sampled every 50 ms; the inspector children are shown too.
import { a4, bigPdf } from '../../test/fixtures/pdfs.ts'
import { servePdf } from '../pdf-server.ts'
import { burst, type PostRequest, summarize } from '../post-load.ts'
import { childrenCpuMicros, cpuMicros, rssKiB, treeRssKiB } from '../processes.ts'
import type { LimitRow, LimitScenario } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { createSubmission, FROM_PDF_PATH, inline, jsonHeaders, threeSignerBody } from '../submissions.ts'

const NAME = 'RSS, 10 PDFs by URL at once'
const DOWNLOADS = 10
const PDF_BYTES = 40_000_000
const SAMPLE_MS = 50
const MAX_RSS_MB = 300

const mb = (kib: number) => kib / 1024

interface Samples {
  peakKiB: number
  peakTreeKiB: number
  count: number
  /** Longest time between two samples: a busy bench process samples less often than asked. */
  maxGapMs: number
}

/** Samples the server's RSS every SAMPLE_MS while `work` runs, and once more after it. */
async function sampleWhile<T>(
  server: RunningServer,
  work: () => Promise<T>,
): Promise<{ result: T; samples: Samples }> {
  const samples: Samples = { peakKiB: 0, peakTreeKiB: 0, count: 0, maxGapMs: 0 }
  let last = performance.now()
  const sample = () => {
    const now = performance.now()
    samples.maxGapMs = Math.max(samples.maxGapMs, now - last)
    last = now
    samples.count++
    samples.peakKiB = Math.max(samples.peakKiB, rssKiB(server.process) ?? 0)
    samples.peakTreeKiB = Math.max(samples.peakTreeKiB, treeRssKiB(server.process) ?? 0)
  }
  sample()
  const timer = setInterval(sample, SAMPLE_MS)
  try {
    const result = await work()
    sample()
    return { result, samples }
  } finally {
    clearInterval(timer)
  }
}

async function runCase(server: RunningServer): Promise<LimitRow> {
  const pdf = await bigPdf(PDF_BYTES)
  const pdfServer = await servePdf(pdf)
  try {
    const request: PostRequest = {
      origin: server.process.baseUrl,
      path: FROM_PDF_PATH,
      headers: jsonHeaders(server),
      body: Buffer.from(JSON.stringify(threeSignerBody({ pdf_url: pdfServer.url }))),
      expectedStatus: 201,
    }
    // One small creation first: the route's first run (JIT, lazy imports) is not what is measured.
    await createSubmission(server, inline(await a4()))
    const idleKiB = rssKiB(server.process) ?? 0
    const cpuBefore = { own: cpuMicros(server.process), children: childrenCpuMicros(server.process) }
    const { result: run, samples } = await sampleWhile(server, () => burst(request, DOWNLOADS))
    const cpuAfter = { own: cpuMicros(server.process), children: childrenCpuMicros(server.process) }
    const figures = summarize(run)
    const perRequest = (after: number | null, before: number | null) =>
      after === null || before === null ? null : (after - before) / Math.max(1, figures.sent)
    const notes = [
      `peak with the PDF inspector children ${mb(samples.peakTreeKiB).toFixed(0)} MB`,
      `${samples.count} samples, longest gap ${samples.maxGapMs.toFixed(0)} ms`,
      `${pdfServer.served()} downloads served`,
      ...(run.firstFailure ? [`first failure: ${run.firstFailure}`] : []),
    ]
    return {
      scenario: NAME,
      case: `sqlite, ${DOWNLOADS} × ${(pdf.length / 1e6).toFixed(1)} MB by URL`,
      figures: {
        ok: figures.ok,
        sent: figures.sent,
        rps: null,
        latencyLoad: `${DOWNLOADS} at once`,
        p50Ms: figures.p50Ms,
        p99Ms: figures.p99Ms,
        maxMs: figures.maxMs,
        cpuMicrosPerRequest: perRequest(cpuAfter.own, cpuBefore.own),
        childCpuMicrosPerRequest: perRequest(cpuAfter.children, cpuBefore.children),
      },
      reference: `idle ${mb(idleKiB).toFixed(0)} MB`,
      notes,
      judged: { label: 'peak RSS', value: mb(samples.peakKiB), max: MAX_RSS_MB, unit: 'MB' },
    }
  } finally {
    await pdfServer.close()
  }
}

export const urlMemoryScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description: `server VmRSS sampled every ${SAMPLE_MS} ms while ${DOWNLOADS} from_pdf requests each fetch a 40 MB PDF`,
  goal: `peak RSS < ${MAX_RSS_MB} MB, all ${DOWNLOADS} answered 201`,
  run: async () => {
    const server = await startParaph(null, { ALLOW_PRIVATE_NETWORK_URLS: 'true' })
    try {
      return [await runCase(server)]
    } finally {
      await server.stop()
    }
  },
}
