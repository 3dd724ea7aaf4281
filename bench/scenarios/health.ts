// Issue row 1: authenticated GET /v1/health (auth, rate limit, request log, request id) against a
// bare Fastify route with the same body, on SQLite and on PostgreSQL.
import { runOnBothEngines } from '../paired-case.ts'
import type { Scenario } from '../scenario.ts'

const NAME = 'GET /v1/health'

export const healthScenario: Scenario = {
  name: NAME,
  description: 'authenticated GET /v1/health vs a bare Fastify route with the same JSON',
  target: { minRatio: 0.6, maxP99Ms: 10 },
  run: (ctx) =>
    runOnBothEngines(ctx, {
      scenario: NAME,
      path: async () => '/v1/health',
      sameShape: (a, b) => Object.keys(a).sort().join() === Object.keys(b).sort().join(),
    }),
}
