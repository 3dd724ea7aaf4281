// Issue row 1: authenticated GET /v1/health (auth, rate limit, request log, request id) against a
// bare Fastify route with the same body, on SQLite and on PostgreSQL.
import { measurePair, preflight } from '../measure.ts'
import { createBenchSchema, isReachable } from '../postgres.ts'
import type { BenchContext, Row, Scenario } from '../scenario.ts'
import { startBaseline, startParaph } from '../servers.ts'

const NAME = 'GET /v1/health'
const PATH = '/v1/health'

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return Object.keys(a).sort().join() === Object.keys(b).sort().join()
}

/** Both servers up at once (an idle server costs nothing), measured in alternating rounds. */
async function runCase(ctx: BenchContext, name: string, databaseUrl: string | null): Promise<Row> {
  const baseline = await startBaseline()
  try {
    const subject = await startParaph(databaseUrl)
    try {
      const baselineBody = await preflight(baseline, PATH)
      const body = await preflight(subject, PATH)
      if (!sameKeys(body, baselineBody)) throw new Error(`body shapes differ: ${JSON.stringify(body)}`)
      const figures = await measurePair(
        ctx,
        { baseline, subject },
        { baseline: PATH, subject: PATH },
        { baseline: 'bare fastify', subject: 'paraph' },
      )
      return { scenario: NAME, case: name, ...figures }
    } finally {
      await subject.stop()
    }
  } finally {
    await baseline.stop()
  }
}

async function runPostgres(ctx: BenchContext): Promise<Row> {
  if (!(await isReachable(ctx.postgresUrl))) {
    return { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }
  }
  const schema = await createBenchSchema(ctx.postgresUrl)
  try {
    return await runCase(ctx, 'postgres', schema.url)
  } finally {
    await schema.drop()
  }
}

export const healthScenario: Scenario = {
  name: NAME,
  description: 'authenticated GET /v1/health vs a bare Fastify route with the same JSON',
  target: { minRatio: 0.6, maxP99Ms: 10 },
  run: async (ctx) => [await runCase(ctx, 'sqlite', null), await runPostgres(ctx)],
}
