// What METRICS_LISTEN costs GET /v1/health. Two Paraph servers in the same run,
// the same build, one without METRICS_LISTEN as the baseline: metrics on must keep >= 95 % of its
// throughput (less than 5 % cost). The server with metrics is scraped every 15 s during the run, as
// Prometheus would (default metrics and the jobs query included). A control case runs the same pair
// with metrics off on both sides (reference, not judged): what two identical servers read against
// each other is the resolution of the ratio on this machine.
import { readFileSync } from 'node:fs'
import { measurePair, preflight } from '../measure.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, Row, Scenario } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'

const NAME = 'GET /v1/health metrics'
const SCRAPE_EVERY_MS = 15_000

/** The metrics address the server logged (`"metrics_address":"http://…"`). */
function metricsAddress(server: RunningServer): string {
  const address = /"metrics_address":"([^"]+)"/.exec(readFileSync(server.process.logFile, 'utf8'))?.[1]
  if (!address) throw new Error('paraph serve logged no metrics_address: METRICS_LISTEN not applied?')
  return address
}

/** Scrapes GET /metrics every 15 s until stopped; returns the stop function (throws on a failed scrape). */
async function scrapeEvery(address: string): Promise<() => Promise<number>> {
  const scrapeOnce = async () => {
    const res = await fetch(`${address}/metrics`)
    const text = await res.text()
    if (res.status !== 200 || !text.includes('paraph_http_requests_total')) {
      throw new Error(`GET ${address}/metrics answered ${res.status}`)
    }
  }
  await scrapeOnce()
  let scrapes = 1
  let failure: unknown = null
  const timer = setInterval(() => {
    scrapeOnce().then(
      () => scrapes++,
      (error: unknown) => {
        failure = error
      },
    )
  }, SCRAPE_EVERY_MS)
  return async () => {
    clearInterval(timer)
    if (failure) throw failure
    return scrapes
  }
}

async function onOffCase(
  ctx: BenchContext,
  name: string,
  urls: { off: string | null; on: string | null },
  subjectMetrics = true,
): Promise<Row> {
  const off = await startParaph(urls.off)
  try {
    const on = await startParaph(urls.on, subjectMetrics ? { METRICS_LISTEN: '127.0.0.1:0' } : {})
    try {
      await preflight(off, '/v1/health')
      await preflight(on, '/v1/health')
      const stopScraping = subjectMetrics ? await scrapeEvery(metricsAddress(on)) : async () => 0
      const figures = await measurePair(
        ctx,
        { baseline: off, subject: on },
        { baseline: '/v1/health', subject: '/v1/health' },
        { baseline: 'metrics off', subject: subjectMetrics ? 'metrics on, scraped' : 'metrics off too' },
      )
      await stopScraping()
      return { scenario: NAME, case: name, ...figures, ...(!subjectMetrics && { reference: true }) }
    } finally {
      await on.stop()
    }
  } finally {
    await off.stop()
  }
}

export const metricsScenario: Scenario = {
  name: NAME,
  description: 'GET /v1/health with METRICS_LISTEN set (scraped every 15 s), against the same server without',
  target: { minRatio: 0.95, maxP99Ms: 10 },
  run: async (ctx) => {
    const sqlite = await onOffCase(ctx, 'sqlite', { off: null, on: null })
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (off) =>
      inThrowawaySchema(ctx.postgresUrl, (on) => onOffCase(ctx, 'postgres', { off, on })),
    )
    const control = await onOffCase(ctx, 'sqlite control', { off: null, on: null }, false)
    const unreachable: Row = { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }
    return [sqlite, postgres ?? unreachable, control]
  },
}
