// Issue #36, the purge at volume (docs/privacy.md#retention-policy): an account with 10 000 ended
// submissions older than its retention policy, purged by the policy, on SQLite and PostgreSQL.
//
// What is seeded, per engine, on `paraph serve --no-worker`: through the API, a template of two
// roles with three prefilled fields (test/bulk-send-rows.ts, the bulk-send bench's), a webhook
// endpoint, 100 live submissions (the GET loop's targets, never purged: they are not ended) and
// one model submission, created (send_email true, so its signing request is a mail job in the
// outbox) and cancelled. The model's rows as the app wrote them — the submission, its 2 signers
// with their values, its journal events, its jobs (the mail and the events' publication) — are
// then cloned 10 000 times straight into the database (fresh ids, slugs and addresses; statuses
// spread over completed, declined, expired and cancelled, ended 40 days ago; jobs done), each clone
// with a webhook delivery of its first event and that delivery's attempt, and 3 files in its
// folder `acct/env/submissions/sub_…/` (final-1.pdf, audit-1.pdf, audit-1.json, as the finalizer
// names them). So each purge meets what a real one does: 2 signers, ~3 events, a delivery and an
// attempt, 2-3 jobs, 3 files, the scope's recent idempotency keys (the 101 creations) and request
// logs (the GET loops'). Seeding is not timed.
//
// Row (a): a retention policy of 30 days on every ended status (PUT /v1/retention_policy), then a
// process of its own (bench/purge-process.ts, as the worker would) runs `applyRetention(deps,
// Infinity)` until all 10 000 are purged (stopped at a 600 s deadline, the row then says how many);
// target < 60 s. Its floor, measured after it on the same database in a process of its own
// (bench/purge-floor-process.ts): the same number of single-row UPDATEs of `submissions.purged_at`,
// each in its own transaction, through the raw driver (better-sqlite3 with the app's pragmas / pg),
// plus the same number of deletions of a folder of the same 3 files — the least work any purge can do.
// Row (b): a closed loop (10 connections) of GET /v1/submissions/{id} over the 100 live ones, for
// 10 s before the policy (quiet) and then for the whole purge; target: p50 and p99 during the
// purge within 20 % of the quiet run's. Row (c), its floor: the same loop during the floor's
// process — what the least purge work costs the API on the same cores.
// PARAPH_PURGE_SUBMISSIONS shrinks the run while developing (the targets are for 10 000).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { a4 } from '../../test/fixtures/pdfs.ts'
import type { LoadSummary } from '../load.ts'
import { createBenchSchema, isReachable } from '../postgres.ts'
import { call, ENDED, LIVE, type Seeded, seed, writeFolder } from '../purge-seed.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { openBenchDatabase, timedRun } from '../worker-runs.ts'

const NAME = 'purge, 10 000 ended submissions by the retention policy'
const PURGED_MS = 60_000
/** The purge process stops starting purges after this long; the row then says how many it purged. */
const DEADLINE_MS = 600_000
const MAX_SLOWDOWN = 20
const QUIET_SECONDS = 10
const CONNECTIONS = 10

type Engine = 'sqlite' | 'postgres'

const submissionCount = () => Number(process.env.PARAPH_PURGE_SUBMISSIONS ?? 10_000)
const count = (n: number) => n.toLocaleString('en-US')
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

/** A closed loop of GET over the live submissions until `stopWhen` settles (or for `seconds`). */
function getLoop(
  server: RunningServer,
  ids: string[],
  until: number | Promise<unknown>,
): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.process.baseUrl,
        headers: { authorization: server.bearer ?? '' },
        connections: CONNECTIONS,
        pipelining: 1,
        timeout: 10,
        duration: typeof until === 'number' ? until : 3600,
        requests: ids.map((id) => ({ method: 'GET', path: `/v1/submissions/${id}` })),
      },
      (error, result) => {
        if (error) return reject(error)
        resolve({
          rps: Math.round(result.requests.average),
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          total: result.requests.total,
          errors: result.errors,
          non2xx: result.non2xx,
          timeouts: result.timeouts,
          overallRate: null,
        })
      },
    )
    if (typeof until !== 'number') void until.finally(() => instance.stop())
  })
}

interface PurgeRun {
  ms: number
  purged: number
  /** The purge process's own CPU over applyRetention (the database server's is not in it). */
  cpuMicros: number
}

interface FloorRun {
  dbMs: number
  fsMs: number
}

/**
 * A bench process (`script`) on the server's data; `meanwhile` starts once it is up (its start line)
 * and is given a promise of its exit. Answers the process's last JSON line that has `resultKey`.
 */
async function processRun<R, T>(
  server: RunningServer,
  dir: string,
  name: string,
  script: string,
  env: Record<string, string>,
  resultKey: string,
  meanwhile: (exited: Promise<unknown>) => Promise<T>,
): Promise<R & { meanwhile: T }> {
  let result: R | undefined
  let other: T | undefined
  await timedRun(dir, name, ['--import', 'tsx', script], { ...server.env!, ...env }, async (child) => {
    const exited =
      child.child.exitCode === null
        ? new Promise((resolve) => child.child.once('exit', resolve))
        : Promise.resolve()
    other = await meanwhile(exited)
    await exited
    const log = await readFile(child.logFile, 'utf8')
    const line = log.split('\n').find((l) => l.startsWith(`{"${resultKey}"`))
    if (!line) throw new Error(`${name} ended without its result:\n${log.slice(-2000)}`)
    result = JSON.parse(line) as R
  })
  return { ...(result as R), meanwhile: other as T }
}

/** The floor's folders, written before its process starts (not timed): `sub_0` … under `root`. */
async function floorFolders(root: string, n: number, pdf: Uint8Array, json: string): Promise<void> {
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        writeFolder(join(root, `sub_${i + j}`), pdf, json),
      ),
    )
  }
}

async function purgedCount(databaseUrl: string, seeded: Seeded): Promise<{ purged: number; live: number }> {
  const database = openBenchDatabase(databaseUrl)
  try {
    const rows = await database.db
      .selectFrom('submissions')
      .select(['id', 'purged_at'])
      .where('account_id', '=', seeded.accountId)
      .where('environment', '=', seeded.environment as 'test')
      .execute()
    const live = new Set(seeded.liveIds)
    return {
      purged: rows.filter((r) => r.purged_at !== null && !live.has(r.id)).length,
      live: rows.filter((r) => r.purged_at === null && live.has(r.id)).length,
    }
  } finally {
    await database.close()
  }
}

const slowdown = (during: number, quiet: number) => (100 * (during - quiet)) / Math.max(quiet, 1)

/** The GET loop's row over a stretch (`when`), judged against the quiet run. */
function getRow(engine: Engine, when: string, load: LoadSummary, quiet: LoadSummary): LimitRow {
  const p50 = slowdown(load.p50Ms, quiet.p50Ms)
  const p99 = slowdown(load.p99Ms, quiet.p99Ms)
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(0)} %`
  return {
    scenario: NAME,
    case: `${engine} GET /v1/submissions/{id} ${when}`,
    figures: {
      ok: load.total - load.non2xx - load.errors,
      sent: load.total,
      rps: load.rps,
      latencyLoad: `${CONNECTIONS} at once`,
      p50Ms: load.p50Ms,
      p99Ms: load.p99Ms,
      maxMs: load.maxMs,
      cpuMicrosPerRequest: null,
      childCpuMicrosPerRequest: null,
    },
    reference: `quiet run before it (${QUIET_SECONDS} s): ${quiet.rps} req/s, p50 ${quiet.p50Ms} ms, p99 ${quiet.p99Ms} ms`,
    notes: [
      `${engine}: GET ${when} ${load.rps} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, max ${load.maxMs} ms (${load.non2xx} non-2xx, ${load.errors} errors) vs quiet ${quiet.rps} req/s, p50 ${quiet.p50Ms} ms, p99 ${quiet.p99Ms} ms: p50 ${signed(p50)}, p99 ${signed(p99)}`,
    ],
    judged: {
      label: 'p50/p99 slowdown',
      value: Math.max(0, p50, p99),
      max: MAX_SLOWDOWN,
      unit: '%',
      derivation: 'the worse of p50 and p99 over the quiet run',
    },
  }
}

async function runEngine(engine: Engine, databaseUrl: string | null): Promise<LimitRow[]> {
  const n = submissionCount()
  // A loopback webhook endpoint; no worker runs in `serve --no-worker`, so nothing is sent to it.
  const paraph = await startParaph(databaseUrl, { ALLOW_PRIVATE_NETWORK_URLS: 'true' })
  try {
    const seeded = await seed(paraph, n)
    await getLoop(paraph, seeded.liveIds, 3) // warm-up
    const quiet = await getLoop(paraph, seeded.liveIds, QUIET_SECONDS)
    await call(paraph, 'PUT', '/v1/retention_policy', { delete_after_days: 30, applies_to: [...ENDED] }, 200)
    const dir = join(seeded.blobRoot, '..')
    const run = await processRun<PurgeRun, LoadSummary>(
      paraph,
      dir,
      'paraph-purge',
      'bench/purge-process.ts',
      { LOG_LEVEL: 'info', PARAPH_PURGE_BUDGET_MS: String(DEADLINE_MS) },
      'purged',
      (exited) => getLoop(paraph, seeded.liveIds, exited),
    )
    const during = run.meanwhile
    const after = await purgedCount(paraph.databaseUrl!, seeded)
    if (after.purged !== run.purged || after.live !== LIVE)
      throw new Error(
        `after the purge: ${after.purged} of ${n} purged (${run.purged} said), ${after.live} of ${LIVE} live ones intact`,
      )
    const partial = run.purged < n ? ` — stopped at the ${DEADLINE_MS / 1000} s deadline` : ''
    const pdf = await a4()
    const json = ''.padEnd(6_000, ' ')
    const idsFile = join(dir, 'floor-ids.txt')
    await writeFile(idsFile, seeded.endedIds.join('\n'))
    const folderRoot = join(seeded.blobRoot, 'floor')
    await floorFolders(folderRoot, n, pdf, json)
    const floorRun = await processRun<FloorRun, LoadSummary>(
      paraph,
      dir,
      'paraph-purge-floor',
      'bench/purge-floor-process.ts',
      { DATABASE_URL: paraph.databaseUrl!, PURGE_FLOOR_IDS: idsFile, PURGE_FLOOR_FOLDERS: folderRoot },
      'floor',
      (exited) => getLoop(paraph, seeded.liveIds, exited),
    )
    const { dbMs: floorDb, fsMs: floorFs } = floorRun
    const floorMs = floorDb + floorFs
    const duringFloor = floorRun.meanwhile

    const rate = (ms: number) => `${((n * 1000) / ms).toFixed(0)} submissions/s`
    const floor = `floor: ${count(n)} single-row UPDATEs of purged_at, one transaction each, by the raw driver ${seconds(floorDb)} + ${count(n)} folder deletions ${seconds(floorFs)} = ${seconds(floorMs)} (${rate(floorMs)})`
    return [
      {
        scenario: NAME,
        case: `${engine} ${count(n)} purged by applyRetention`,
        figures: {
          ok: run.purged,
          sent: n,
          rps: null,
          latencyLoad: 'one process',
          p50Ms: run.ms,
          p99Ms: run.ms,
          maxMs: run.ms,
          cpuMicrosPerRequest: run.cpuMicros / run.purged,
          childCpuMicrosPerRequest: null,
        },
        reference: floor,
        notes: [
          `${engine}: ${count(run.purged)} of ${count(n)} purged in ${seconds(run.ms)}${partial} (${((run.purged * 1000) / run.ms).toFixed(0)} submissions/s, ${(run.ms / run.purged).toFixed(2)} ms each), ${(run.ms / run.purged / (floorMs / n)).toFixed(1)}× the floor per submission; purge process CPU ${(run.cpuMicros / run.purged / 1000).toFixed(2)} ms per submission; ${floor}`,
        ],
        judged: { label: 'all purged', value: run.ms, max: PURGED_MS, unit: 'ms' },
      },
      getRow(engine, 'during the purge', during, quiet),
      getRow(engine, 'during the floor’s work (its process)', duringFloor, quiet),
    ]
  } finally {
    await paraph.stop()
  }
}

export const purgeScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    '10 000 ended submissions (2 signers, values, events, a webhook delivery, mail jobs, 3 files each) purged by a 30-day retention policy in one applyRetention run, beside the floor of as many single-row UPDATEs and folder deletions; GET /v1/submissions/{id} of live submissions during the purge and during the floor, beside a quiet run',
  goal: `all purged < ${PURGED_MS / 1000} s on each engine; GET p50 and p99 during the purge within ${MAX_SLOWDOWN} % of the quiet run`,
  run: async (ctx: BenchContext) => {
    const rows: Array<LimitRow | SkippedRow> = []
    const skip = (engine: Engine, error: unknown) =>
      rows.push({
        scenario: NAME,
        case: engine,
        skipped: error instanceof Error ? error.message : String(error),
      })
    try {
      rows.push(...(await runEngine('sqlite', null)))
    } catch (error) {
      skip('sqlite', error)
    }
    try {
      if (!(await isReachable(ctx.postgresUrl))) {
        rows.push({ scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' })
      } else {
        const schema = await createBenchSchema(ctx.postgresUrl)
        try {
          rows.push(...(await runEngine('postgres', schema.url)))
        } finally {
          await schema.drop()
        }
      }
    } catch (error) {
      skip('postgres', error)
    }
    return rows
  },
}
