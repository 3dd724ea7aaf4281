// Reference row for the GET /v1/submissions/{id} target: the bare route against floor-server.ts,
// which does only Paraph's own read and mapping of the same submission. Not judged itself: it
// shows how much of bare any implementation doing that database read can reach on this machine,
// and since issue #10 the GET row is judged against it (>= 90% of its ratio, same engine, same run).
import { a4 } from '../../test/fixtures/pdfs.ts'
import { measurePair, preflight } from '../measure.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, Row, Scenario } from '../scenario.ts'
import { startBaseline, startFloor, startParaph } from '../servers.ts'
import { createSubmission, inline } from '../submissions.ts'

export const FLOOR_NAME = 'GET /v1/submissions/{id} floor'

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
        return { scenario: FLOOR_NAME, case: name, ...figures }
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
  name: FLOOR_NAME,
  description:
    "reference, not judged: bare Fastify doing only Paraph's read and mapping of the same submission",
  reference: true,
  run: async (ctx) => {
    const sqlite = await floorCase(ctx, 'sqlite', null)
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => floorCase(ctx, 'postgres', url))
    return [sqlite, postgres ?? { scenario: FLOOR_NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }]
  },
}
