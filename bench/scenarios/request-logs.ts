// What request logging costs GET /v1/health. Two Paraph servers in the same run,
// the same build, one with REQUEST_LOGS=false as the baseline: logging must keep >= 95 % of its
// throughput (less than 5 % cost). The GET /v1/health row itself (logging on) stays judged on bare.
// A control case runs the same pair with logging off on both sides (reference, not judged): what two
// identical servers read against each other is the resolution of the ratio on this machine (on the
// shared 2-core machine of issue #22 it read 92.6-98.5 %, finer than the 5 % the target asks).
import { measurePair, preflight } from '../measure.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, Row, Scenario } from '../scenario.ts'
import { startParaph } from '../servers.ts'

const NAME = 'GET /v1/health request logs'

async function onOffCase(
  ctx: BenchContext,
  name: string,
  urls: { off: string | null; on: string | null },
  subjectLogs: 'true' | 'false' = 'true',
) {
  const off = await startParaph(urls.off, { REQUEST_LOGS: 'false' })
  try {
    const on = await startParaph(urls.on, { REQUEST_LOGS: subjectLogs })
    try {
      await preflight(off, '/v1/health')
      await preflight(on, '/v1/health')
      const figures = await measurePair(
        ctx,
        { baseline: off, subject: on },
        { baseline: '/v1/health', subject: '/v1/health' },
        { baseline: 'logging off', subject: subjectLogs === 'true' ? 'logging on' : 'logging off too' },
      )
      return {
        scenario: NAME,
        case: name,
        ...figures,
        ...(subjectLogs === 'false' && { reference: true }),
      } satisfies Row
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
    const control = await inThrowawaySchema(ctx.postgresUrl, (off) =>
      inThrowawaySchema(ctx.postgresUrl, (same) =>
        onOffCase(ctx, 'postgres control', { off, on: same }, 'false'),
      ),
    )
    const unreachable = (name: string): Row => ({
      scenario: NAME,
      case: name,
      skipped: 'PostgreSQL unreachable',
    })
    return [sqlite, postgres ?? unreachable('postgres'), control ?? unreachable('postgres control')]
  },
}
