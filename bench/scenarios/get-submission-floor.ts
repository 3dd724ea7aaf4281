// Reference row for issue #4's GET target: the bare route against floor-server.ts, which does only
// Paraph's own read and mapping of the same submission. Not judged: it shows how much of the
// ">= 50% of bare" target any implementation doing that database read can reach on this machine.
import { a4 } from '../../test/fixtures/pdfs.ts'
import { measurePair, preflight } from '../measure.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, Row, Scenario } from '../scenario.ts'
import { startBaseline, startFloor, startParaph } from '../servers.ts'
import { createSubmission, inline } from '../submissions.ts'

const NAME = 'GET /v1/submissions/{id} floor'

async function floorCase(ctx: BenchContext, name: string, databaseUrl: string | null): Promise<Row> {
  const paraph = await startParaph(databaseUrl)
  try {
    const id = await createSubmission(paraph, inline(await a4()))
    const { account_id: accountId } = await preflight(paraph, '/v1/health')
    const path = `/v1/submissions/${id}`
    const baseline = await startBaseline()
    try {
      const floor = await startFloor(paraph.databaseUrl!, String(accountId))
      try {
        await preflight(baseline, path)
        await preflight(floor, path)
        const figures = await measurePair(
          ctx,
          { baseline, subject: floor },
          { baseline: path, subject: path },
          { baseline: 'bare fastify', subject: 'bare + read' },
        )
        return { scenario: NAME, case: name, ...figures }
      } finally {
        await floor.stop()
      }
    } finally {
      await baseline.stop()
    }
  } finally {
    await paraph.stop()
  }
}

export const getSubmissionFloorScenario: Scenario = {
  name: NAME,
  description:
    "reference, not judged: bare Fastify doing only Paraph's read and mapping of the same submission",
  target: { minRatio: 0.5, maxP99Ms: 10 },
  reference: true,
  run: async (ctx) => {
    const sqlite = await floorCase(ctx, 'sqlite', null)
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => floorCase(ctx, 'postgres', url))
    return [sqlite, postgres ?? { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }]
  },
}
