// from_html of a 2-page A4 document, p50 at 1 and 2 requests at once, beside the floor:
// raw Chromium (Debian's, through playwright-core) doing newContext + setContent + page.pdf() of
// the same HTML in the same run at the same concurrency, rounds alternating so drift hits both.
// Target: p50 ≤ 1.3 × floor + 30 ms. The Paraph side is the route (`paraph serve` on SQLite: the
// tags found, the render, the PDF read by the inspector, stored, the submission written) and, as a
// second row, Paraph's renderer alone in this process; then a 5 MB single-line HTML, its time and
// the peak memory (PSS) of the renderer's Chromium processes.
import { setTimeout as sleep } from 'node:timers/promises'
import { ChromiumRenderer } from '../../src/render/chromium-renderer.ts'
import { paraphRoute, rawChromium, rendererAlone, type Side, TWO_PAGES } from '../html-render.ts'
import { groupPssKiB } from '../processes.ts'
import { type LimitRow, type LimitScenario, oneRequestFigures } from '../scenario.ts'
import { percentile } from '../stats.ts'

const NAME = 'from_html, 2-page A4 document'
const WARM_UPS = 3
const ROUNDS = 6
const PER_ROUND = 6
const SPACED_MS = 300
const fixed = (n: number) => n.toFixed(1)

/**
 * `concurrency` workers each render `count` times, back to back or `gapMs` apart; the latency of
 * each render.
 */
async function closedLoop(side: Side, concurrency: number, count: number, gapMs = 0): Promise<number[]> {
  const latencies: number[] = []
  const worker = async () => {
    for (let i = 0; i < count; i++) {
      if (gapMs > 0) await sleep(gapMs)
      const started = performance.now()
      await side.render(TWO_PAGES)
      latencies.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return latencies
}

async function compare(paraph: Side, floor: Side, concurrency: number, gapMs = 0): Promise<LimitRow> {
  await closedLoop(paraph, concurrency, WARM_UPS, gapMs)
  await closedLoop(floor, concurrency, WARM_UPS, gapMs)
  const subject: number[] = []
  const bare: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    subject.push(...(await closedLoop(paraph, concurrency, PER_ROUND, gapMs)))
    bare.push(...(await closedLoop(floor, concurrency, PER_ROUND, gapMs)))
  }
  const load = gapMs > 0 ? `1 every ${gapMs} ms` : `${concurrency} at once`
  const floorP50 = percentile(bare, 50)
  return {
    scenario: NAME,
    case: `${paraph.label}, ${load}`,
    figures: {
      ok: subject.length,
      sent: subject.length,
      rps: null,
      latencyLoad: load,
      p50Ms: percentile(subject, 50),
      p99Ms: percentile(subject, 99),
      maxMs: Math.max(...subject),
      cpuMicrosPerRequest: null,
      childCpuMicrosPerRequest: null,
    },
    reference: `floor ${fixed(floorP50)} ms`,
    notes: [
      `${paraph.label}: p50 ${fixed(percentile(subject, 50))} ms, p90 ${fixed(percentile(subject, 90))} ms over ${subject.length}`,
      `floor (raw Chromium: newContext + newPage + setContent + pdf): p50 ${fixed(floorP50)} ms, p90 ${fixed(percentile(bare, 90))} ms`,
    ],
    judged: {
      label: 'p50',
      value: percentile(subject, 50),
      max: 1.3 * floorP50 + 30,
      unit: 'ms',
      derivation: '1.3 × floor + 30 ms',
    },
  }
}

/** One render of a 5 MB single line of text, sampling the renderer's Chromium memory meanwhile. */
async function fiveMegabytes(): Promise<LimitRow> {
  const renderer = new ChromiumRenderer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    logger: { debug() {}, warn() {} },
  })
  try {
    await renderer.warm()
    const pid = (await renderer.browserPid())!
    const idleMiB = groupPssKiB(pid) / 1024
    let peakMiB = idleMiB
    const sampler = setInterval(() => {
      peakMiB = Math.max(peakMiB, groupPssKiB(pid) / 1024)
    }, 50)
    const html = `<p>${'word '.repeat(1_000_000)}</p>`
    const started = performance.now()
    const outcome = await renderer.render(html, 'A4', 'https://fields.paraph.invalid/bench/').then(
      (rendered) => `${rendered.pages} pages`,
      (error: Error & { reason?: string }) => `${error.reason}: ${error.message}`,
    )
    const ms = performance.now() - started
    clearInterval(sampler)
    return {
      scenario: NAME,
      case: 'renderer alone, 5 MB single-line HTML',
      figures: oneRequestFigures(ms),
      reference: `Chromium idle ${fixed(idleMiB)} MB`,
      notes: [
        `5 MB single line: ${fixed(ms)} ms, ${outcome}; Chromium PSS idle ${fixed(idleMiB)} MB, peak ${fixed(peakMiB)} MB (sampled every 50 ms)`,
      ],
      judged: { label: 'peak PSS', value: peakMiB, max: 1024, unit: 'MB', derivation: '1 GB' },
    }
  } finally {
    await renderer.close()
  }
}

export const fromHtmlScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'POST /v1/submissions/from_html (paraph serve, SQLite), and the renderer alone, against raw Chromium (newContext + setContent + page.pdf), same HTML, same concurrency, alternating rounds',
  goal: 'p50 ≤ 1.3 × floor + 30 ms at 1 and 2 at once (and at 1 every 300 ms); 5 MB single-line HTML: Chromium peak PSS < 1 GB',
  run: async () => {
    const floor = await rawChromium()
    try {
      const rows: LimitRow[] = []
      // Back to back, both sides are bound by making contexts (~150 ms of CPU each); requests
      // with a pause between them, as an API sees them, show what the spare contexts save.
      const route = await paraphRoute()
      try {
        rows.push(await compare(route, floor, 1), await compare(route, floor, 2))
        rows.push(await compare(route, floor, 1, SPACED_MS))
      } finally {
        await route.stop()
      }
      const alone = await rendererAlone()
      try {
        rows.push(await compare(alone, floor, 1), await compare(alone, floor, 2))
        rows.push(await compare(alone, floor, 1, SPACED_MS))
      } finally {
        await alone.stop()
      }
      rows.push(await fiveMegabytes())
      return rows
    } finally {
      await floor.stop()
    }
  },
}
