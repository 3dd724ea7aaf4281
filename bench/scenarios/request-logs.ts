// Issue #22 item 4: what request logging costs GET /v1/health. Two Paraph servers in the same run,
// the same build, one with REQUEST_LOGS=false as the baseline: logging must keep >= 95 % of its
// throughput (less than 5 % cost). The GET /v1/health row itself (logging on) stays judged on bare.
import { measurePair, preflight } from '../measure.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, Row, Scenario } from '../scenario.ts'
import { startParaph } from '../servers.ts'

const NAME = 'GET /v1/health request logs'

async function onOffCase(ctx: BenchContext, name: string, urls: { off: string | null; on: string | null }) {
  const off = await startParaph(urls.off, { REQUEST_LOGS: 'false' })
  try {
    const on = await startParaph(urls.on, { REQUEST_LOGS: 'true' })
    try {
      await preflight(off, '/v1/health')
      await preflight(on, '/v1/health')
      const figures = await measurePair(
        ctx,
        { baseline: off, subject: on },
        { baseline: '/v1/health', subject: '/v1/health' },
        { baseline: 'logging off', subject: 'logging on' },
      )
      return { scenario: NAME, case: name, ...figures } satisfies Row
    } finally {
      await on.stop()
    }
  } finally {
    await off.stop()
  }
}

export const requestLogsScenario: Scenario = {
  name: NAME,
  description: 'GET /v1/health with request logs on, against the same server with REQUEST_LOGS=false',
  target: { minRatio: 0.95, maxP99Ms: 10 },
  run: async (ctx) => {
    const sqlite = await onOffCase(ctx, 'sqlite', { off: null, on: null })
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (off) =>
      inThrowawaySchema(ctx.postgresUrl, (on) => onOffCase(ctx, 'postgres', { off, on })),
    )
    return [sqlite, postgres ?? { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }]
  },
}
