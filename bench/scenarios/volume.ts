// Issue #24 item 7, cost at volume: in the 5-minute soak the server's CPU per request rose as the
// tables grew. Two `paraph serve` processes per engine: one whose database holds 1 000 000
// submissions (with their submitters, events, ledger rows, jobs and internal templates, written
// straight into the database by test/volume-seed.ts and ANALYZEd), one holding 2 000 of the same
// (the first two pages of every filter still full, so both serve the same work). Each case sends its request to
// both in alternating blocks, one request at a time, and compares the server CPU per request.
// PARAPH_VOLUME_SUBMISSIONS (run.ts) sets the loaded count, e.g. 50 000 while developing;
// PARAPH_VOLUME_CASES and PARAPH_VOLUME_ENGINES pick cases and engines.
import { openDatabase } from '../../src/db/database.ts'
import { type SeedEngine, seedVolume } from '../../test/volume-seed.ts'
import { preflight } from '../measure.ts'
import { createBenchSchema, isReachable } from '../postgres.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { percentile } from '../stats.ts'
import { VOLUME_CASES, type VolumeCase } from '../volume-cases.ts'
import { costRatios, measureCase, type Pacing } from '../volume-measure.ts'

const NAME = 'Cost at volume'
const SMALL = 2_000
const GET_PACING: Pacing = { blocks: 10, perBlock: 100 }
/** Loaded cost over small cost, CPU per request: the target. */
const MAX_RATIO = 1.2

const fixed = (n: number, digits = 1) => n.toFixed(digits)
const count = (n: number) => n.toLocaleString('en-US')

/** PARAPH_VOLUME_CASES: only the cases whose name contains one of its comma-separated words. */
function chosenCases(): VolumeCase[] {
  const words = (process.env.PARAPH_VOLUME_CASES ?? '').split(',').filter(Boolean)
  if (words.length === 0) return VOLUME_CASES
  return VOLUME_CASES.filter((c) => words.some((w) => c.name.toLowerCase().includes(w.toLowerCase())))
}

/** PARAPH_VOLUME_ENGINES: sqlite, postgres, or both (the default). */
function engineChosen(engine: SeedEngine): boolean {
  const chosen = process.env.PARAPH_VOLUME_ENGINES
  return !chosen || chosen.split(',').includes(engine)
}

/** Writes `submissions` into a running server's database, as its default account; seconds taken. */
async function seed(server: RunningServer, submissions: number): Promise<number> {
  const { account_id: accountId } = await preflight(server, '/v1/health')
  const url = server.databaseUrl!
  const engine: SeedEngine = url.startsWith('sqlite:') ? 'sqlite' : 'postgres'
  const database = openDatabase(
    engine === 'sqlite' ? { engine, path: url.slice('sqlite:'.length) } : { engine, url },
  )
  try {
    return await seedVolume(database.db, engine, {
      accountId: String(accountId),
      submissions,
      now: new Date(),
    })
  } finally {
    await database.close()
  }
}

async function runEngine(
  ctx: BenchContext,
  engine: SeedEngine,
  urls: { small: string | null; loaded: string | null },
): Promise<Array<LimitRow | SkippedRow>> {
  const small = await startParaph(urls.small)
  try {
    const loaded = await startParaph(urls.loaded)
    try {
      await seed(small, SMALL)
      const seconds = await seed(loaded, ctx.volumeSubmissions)
      // The SQLite seed holds this event loop for minutes; a keep-alive socket a server closed
      // meanwhile is only seen closed once the loop reads it: let it, before the next request
      // (else that request goes out on the dead socket: "fetch failed", twice at 1 M).
      await new Promise((resolve) => setImmediate(resolve))
      console.error(
        `bench: ${NAME} ${engine}: ${count(ctx.volumeSubmissions)} submissions in ${fixed(seconds)} s`,
      )
      const rows: Array<LimitRow | SkippedRow> = []
      for (const volumeCase of chosenCases()) {
        console.error(`bench: ${NAME} ${engine}: ${volumeCase.name} …`)
        try {
          const first = !rows.some((row) => 'figures' in row)
          rows.push(await measured(volumeCase, { small, loaded }, engine, first ? seconds : null, ctx))
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          rows.push({ scenario: NAME, case: `${engine} ${volumeCase.name}`, skipped: message })
        }
      }
      return rows
    } finally {
      await loaded.stop()
    }
  } finally {
    await small.stop()
  }
}

/** One case's row; `seededSeconds` is noted on the engine's first row. */
async function measured(
  volumeCase: VolumeCase,
  servers: { small: RunningServer; loaded: RunningServer },
  engine: SeedEngine,
  seededSeconds: number | null,
  ctx: BenchContext,
): Promise<LimitRow> {
  const { small, loaded } = servers
  const sends = { small: await volumeCase.prepare(small), loaded: await volumeCase.prepare(loaded) }
  const figures = await measureCase(
    servers,
    (server, i) => (server === small ? sends.small : sends.loaded)(server, i),
    volumeCase.pacing ?? GET_PACING,
  )
  const ratios = costRatios(figures)
  const blocks = (which: 'small' | 'loaded') =>
    figures[which].blockCpuMicros.map((µs) => fixed(µs, 0)).join(' ')
  const notes = [
    ...(seededSeconds === null
      ? []
      : [
          `${engine}: ${count(ctx.volumeSubmissions)} submissions written and analyzed in ${fixed(seededSeconds)} s`,
        ]),
    `${engine} ${volumeCase.name}: CPU per request by block, µs: small ${blocks('small')}; loaded ${blocks('loaded')} (totals: ${fixed(ratios.cpuTotals * 100)} %)`,
  ]
  return {
    scenario: NAME,
    case: `${engine} ${volumeCase.name}`,
    figures: {
      ok: figures.loaded.ms.length,
      sent: figures.loaded.ms.length,
      rps: null,
      latencyLoad: 'one at a time',
      p50Ms: percentile(figures.loaded.ms, 50),
      p99Ms: percentile(figures.loaded.ms, 99),
      maxMs: Math.max(...figures.loaded.ms),
      cpuMicrosPerRequest: figures.loaded.cpuMicrosPerRequest,
      childCpuMicrosPerRequest: null,
    },
    reference: `${count(SMALL)} submissions: cpu ${fixed(figures.small.cpuMicrosPerRequest, 0)} µs, p50 ${fixed(percentile(figures.small.ms, 50), 2)} ms (p50 ×${fixed(ratios.p50, 2)})`,
    notes,
    judged: {
      label: 'median block cpu/req vs small',
      value: ratios.cpu * 100,
      max: MAX_RATIO * 100,
      unit: '%',
    },
  }
}

async function onPostgres(ctx: BenchContext): Promise<Array<LimitRow | SkippedRow>> {
  if (!(await isReachable(ctx.postgresUrl))) {
    return [{ scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }]
  }
  const small = await createBenchSchema(ctx.postgresUrl)
  try {
    const loaded = await createBenchSchema(ctx.postgresUrl)
    try {
      return await runEngine(ctx, 'postgres', { small: small.url, loaded: loaded.url })
    } finally {
      await loaded.drop()
    }
  } finally {
    await small.drop()
  }
}

export const volumeScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description: `every hot route against 1 M submissions (PARAPH_VOLUME_SUBMISSIONS) vs ${count(SMALL)}, same server, CPU per request`,
  goal: `server CPU per request on the loaded database < ${MAX_RATIO} × the same on ${count(SMALL)} submissions, each case, each engine`,
  run: async (ctx: BenchContext) => [
    ...(engineChosen('sqlite') ? await runEngine(ctx, 'sqlite', { small: null, loaded: null }) : []),
    ...(engineChosen('postgres') ? await onPostgres(ctx) : []),
  ],
}
