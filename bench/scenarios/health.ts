// Issue row 1: authenticated GET /v1/health (auth, rate limit, request log, request id) against a
// bare Fastify route with the same body, on SQLite and on PostgreSQL.
import { measureServer, preflight } from '../measure.ts'
import { createBenchSchema, isReachable } from '../postgres.ts'
import type { BenchContext, Row, Scenario, ServerFigures } from '../scenario.ts'
import { type RunningServer, startBaseline, startParaph } from '../servers.ts'

const NAME = 'GET /v1/health'
const PATH = '/v1/health'

async function withServer<T>(
  start: Promise<RunningServer>,
  use: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const server = await start
  try {
    return await use(server)
  } finally {
    await server.stop()
  }
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return Object.keys(a).sort().join() === Object.keys(b).sort().join()
}

/** Baseline first, then Paraph, one after the other: with 2 cores they must not compete. */
async function runCase(ctx: BenchContext, name: string, databaseUrl: string | null): Promise<Row> {
  let baselineBody: Record<string, unknown> = {}
  const baseline: ServerFigures = await withServer(startBaseline(), async (server) => {
    baselineBody = await preflight(server, PATH)
    return measureServer(ctx, server, PATH, 'bare fastify', (rps) => rps * ctx.fixedRateShare)
  })
  const rate = baseline.fixedRate.overallRate ?? 0
  const subject = await withServer(startParaph(databaseUrl), async (server) => {
    const body = await preflight(server, PATH)
    if (!sameKeys(body, baselineBody)) throw new Error(`body shapes differ: ${JSON.stringify(body)}`)
    return measureServer(ctx, server, PATH, 'paraph', () => rate)
  })
  return { scenario: NAME, case: name, baseline, subject }
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
