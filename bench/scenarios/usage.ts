// GET /v1/usage answered from the signature ledger with 1 000 000 rows in it,
// against `paraph serve`, one request at a time. The rows are written straight into the served
// database in bulk (one prepared statement in one transaction on SQLite, unnest() batches on
// PostgreSQL), the daily rollup derived from them as migration 0016 does, then ANALYZEd (VACUUMed
// too on PostgreSQL) as autovacuum would: 1 000 accounts over the last 12 months in both
// environments, and the measured account (the default account's test key) with HEAVY signatures in
// the current month — a customer past the 10 000 tier. Beside it the floor: the engine's own driver
// running the same rollup query in this process (no HTTP, no JSON), alternating with Paraph.
import Sqlite from 'better-sqlite3'
import pg from 'pg'
import { REBUILD_SIGNATURE_DAYS_SQL } from '../../src/usage/signature-ledger.ts'
import { preflight } from '../measure.ts'
import { inThrowawaySchema } from '../postgres.ts'
import {
  type BenchContext,
  type LimitRow,
  type LimitScenario,
  oneAtATimeFigures,
  type SkippedRow,
} from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { percentile } from '../stats.ts'

const NAME = 'GET /v1/usage (1 M ledger rows)'
const ROWS = 1_000_000
const HEAVY = 20_000
const ACCOUNTS = 1_000
const WARM_UPS = 30
const RUNS = 300
const BATCH = 50_000
const COLUMNS = [
  'id',
  'account_id',
  'environment',
  'submitter_id',
  'submission_id',
  'kind',
  'signed_at',
] as const
// What GET /v1/usage reads: the month's days of the daily rollup (migration 0016).
const QUERY_SQL =
  'select day, sum(signatures) as signatures from signature_days where account_id = $1 and environment = $2 and day >= $3 and day < $4 group by day'

const fixed = (n: number) => n.toFixed(1)
const pad = (n: number) => n.toString(36).padStart(24, '0')

/** Row `i` of the ledger as column values: the first HEAVY rows are the measured account's month. */
function row(i: number, accountId: string, monthStart: number, now: number): string[] {
  const heavy = i < HEAVY
  const at = heavy
    ? monthStart + ((i * 7919) % (now - monthStart))
    : now - ((i * 104_729 * 1000) % (365 * 86_400_000))
  return [
    `sig_${pad(i)}`,
    heavy ? accountId : `acct_${pad(i % ACCOUNTS)}`,
    heavy || i % 2 === 0 ? 'test' : 'live',
    `sbm_${pad(i)}`,
    `sub_${pad(Math.floor(i / 2))}`,
    i % 10 === 0 ? 'pre_signed' : 'signed',
    new Date(at).toISOString(),
  ]
}

interface Floor {
  fill(make: (i: number) => string[]): Promise<void>
  query(params: string[]): Promise<number>
  close(): Promise<void>
}

function sqliteFloor(path: string): Floor {
  const db = new Sqlite(path)
  db.pragma('busy_timeout = 10000')
  const statement = db.prepare(QUERY_SQL.replace(/\$\d/g, '?'))
  return {
    async fill(make) {
      const insert = db.prepare(`insert into signatures (${COLUMNS.join(', ')}) values (?, ?, ?, ?, ?, ?, ?)`)
      db.transaction(() => {
        for (let i = 0; i < ROWS; i++) insert.run(...make(i))
        for (const text of REBUILD_SIGNATURE_DAYS_SQL) db.exec(text)
      })()
      db.exec('analyze')
    },
    async query(params) {
      const started = performance.now()
      statement.all(...params)
      return performance.now() - started
    },
    async close() {
      db.close()
    },
  }
}

async function postgresFloor(url: string): Promise<Floor> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return {
    async fill(make) {
      const types = COLUMNS.map((_, c) => `$${c + 1}::text[]`).join(', ')
      for (let from = 0; from < ROWS; from += BATCH) {
        const columns: string[][] = COLUMNS.map(() => [])
        for (let i = from; i < Math.min(from + BATCH, ROWS); i++) {
          for (const [c, value] of make(i).entries()) columns[c]!.push(value)
        }
        await client.query(
          `insert into signatures (${COLUMNS.join(', ')}) select * from unnest(${types})`,
          columns,
        )
      }
      for (const text of REBUILD_SIGNATURE_DAYS_SQL) await client.query(text)
      // What autovacuum does after a bulk insert (PostgreSQL 13+): statistics and the visibility map.
      await client.query('vacuum analyze signatures, signature_days')
    },
    async query(params) {
      const started = performance.now()
      await client.query({ name: 'usage-floor', text: QUERY_SQL, values: params })
      return performance.now() - started
    },
    close: () => client.end(),
  }
}

async function timedGet(server: RunningServer, path: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    headers: { authorization: server.bearer! },
  })
  const body = await response.text()
  if (response.status !== 200)
    throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 200)}`)
  return performance.now() - started
}

async function runEngine(databaseUrl: string | null, engine: string): Promise<LimitRow> {
  const paraph = await startParaph(databaseUrl)
  let floor: Floor | undefined
  try {
    const { account_id: accountId } = await preflight(paraph, '/v1/health')
    const now = Date.now()
    const month = new Date(now).toISOString().slice(0, 7)
    const monthStart = Date.parse(`${month}-01T00:00:00.000Z`)
    const url = paraph.databaseUrl!
    floor = url.startsWith('sqlite:') ? sqliteFloor(url.slice('sqlite:'.length)) : await postgresFloor(url)
    const filling = performance.now()
    await floor.fill((i) => row(i, String(accountId), monthStart, now))
    const fillSeconds = (performance.now() - filling) / 1000
    const answer = await preflight(paraph, '/v1/usage')
    if (answer.signatures !== HEAVY)
      throw new Error(`GET /v1/usage counted ${answer.signatures}, not ${HEAVY}`)
    const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 1)).toISOString()
    const params = [String(accountId), 'test', `${month}-01`, next.slice(0, 10)]
    const paraphMs: number[] = []
    const floorMs: number[] = []
    for (let i = 0; i < WARM_UPS + RUNS; i++) {
      const first = i % 2 === 0
      const a = first ? await timedGet(paraph, '/v1/usage') : await floor.query(params)
      const b = first ? await floor.query(params) : await timedGet(paraph, '/v1/usage')
      if (i < WARM_UPS) continue
      paraphMs.push(first ? a : b)
      floorMs.push(first ? b : a)
    }
    const p50 = percentile(paraphMs, 50)
    return {
      scenario: NAME,
      case: engine,
      figures: oneAtATimeFigures(paraphMs),
      reference: `floor (driver, same rollup query) p50 ${fixed(percentile(floorMs, 50))} ms`,
      notes: [
        `${ROWS} ledger rows (${ACCOUNTS} accounts, 12 months, both environments; ${HEAVY} in the measured account's month), written in ${fixed(fillSeconds)} s`,
        `Paraph p50 ${fixed(p50)}, p90 ${fixed(percentile(paraphMs, 90))} ms; floor p50 ${fixed(percentile(floorMs, 50))}, p90 ${fixed(percentile(floorMs, 90))}, p99 ${fixed(percentile(floorMs, 99))} ms (${RUNS} each, alternating)`,
      ],
      judged: { label: 'p50', value: p50, unit: 'ms', max: 20 },
    }
  } finally {
    await floor?.close()
    await paraph.stop()
  }
}

export const usageScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description: `the month of an account with ${HEAVY} signatures, 1 000 000 rows in the ledger across ${ACCOUNTS} accounts`,
  goal: 'p50 < 20 ms on each engine; floor: the engine driver running the same aggregate query in-process',
  run: async (ctx: BenchContext) => {
    const rows: Array<LimitRow | SkippedRow> = [await runEngine(null, 'sqlite')]
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => runEngine(url, 'postgres'))
    rows.push(postgres ?? { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' })
    return rows
  },
}
