// One case of a GET scenario: the bare baseline and Paraph up at once (an idle server costs
// nothing), the same path preflighted on both, then measured in alternating rounds.
import { measurePair, preflight } from './measure.ts'
import { inThrowawaySchema } from './postgres.ts'
import type { BenchContext, Row } from './scenario.ts'
import { type RunningServer, startBaseline, startParaph } from './servers.ts'

export interface PairedCase {
  scenario: string
  /** The path to GET on both servers, after any setup on Paraph (creating what it reads). */
  path(subject: RunningServer): Promise<string>
  /** Whether Paraph's answer has the baseline's shape, so both serve comparable work. */
  sameShape(subject: Record<string, unknown>, baseline: Record<string, unknown>): boolean
}

export async function runPairedCase(
  ctx: BenchContext,
  spec: PairedCase,
  name: string,
  databaseUrl: string | null,
): Promise<Row> {
  const baseline = await startBaseline()
  try {
    const subject = await startParaph(databaseUrl)
    try {
      const path = await spec.path(subject)
      const baselineBody = await preflight(baseline, path)
      const body = await preflight(subject, path)
      if (!spec.sameShape(body, baselineBody)) throw new Error(`body shapes differ: ${JSON.stringify(body)}`)
      const figures = await measurePair(
        ctx,
        { baseline, subject },
        { baseline: path, subject: path },
        { baseline: 'bare fastify', subject: 'paraph' },
      )
      return { scenario: spec.scenario, case: name, ...figures }
    } finally {
      await subject.stop()
    }
  } finally {
    await baseline.stop()
  }
}

/** The SQLite case, then the PostgreSQL case in a throwaway schema (skipped when unreachable). */
export async function runOnBothEngines(ctx: BenchContext, spec: PairedCase): Promise<Row[]> {
  const sqlite = await runPairedCase(ctx, spec, 'sqlite', null)
  const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) =>
    runPairedCase(ctx, spec, 'postgres', url),
  )
  return [
    sqlite,
    postgres ?? { scenario: spec.scenario, case: 'postgres', skipped: 'PostgreSQL unreachable' },
  ]
}
