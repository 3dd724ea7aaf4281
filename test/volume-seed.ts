// A volume of submissions written straight into the database, with the rows a real
// submission has (its template — an internal one for a from_pdf creation —, submitters, journal
// events, signature ledger rows, a done mail job), spread over one measured account and 20 noise
// accounts, both environments and the last 12 months. One INSERT … SELECT per table over a series
// (a recursive CTE on SQLite, generate_series on PostgreSQL), in batches inside one transaction per
// batch, then ANALYZE as autovacuum (or `paraph`'s optimize) would. Used by the query-plan test
// (a few thousand rows) and bench/scenarios/volume.ts (1 000 000).
import { type Kysely, sql } from 'kysely'
import type { Tables } from '../src/db/tables.ts'
import { REBUILD_SIGNATURE_DAYS_SQL } from '../src/usage/signature-ledger.ts'

export type SeedEngine = 'sqlite' | 'postgres'

export interface VolumeSeed {
  /** The measured account: 60 % of the rows, half of them in `test`. */
  accountId: string
  submissions: number
  /** Newest row's created_at; older rows go back 12 months from there. */
  now: Date
  batch?: number
}

const NOISE_ACCOUNTS = 20
const TEMPLATES_PER_ACCOUNT = 17
const YEAR_SECONDS = 365 * 86_400

/** The id of the measured account's shared template `k` (0 … 16), with thousands of submissions. */
export const seededTemplateId = (k: number) => `tpl_x${String(k).padStart(23, '0')}`

interface SqlDialect {
  series(from: string, to: string): string
  pad(expr: string, width: number): string
  iso(epochSeconds: string): string
}

const DIALECTS: Record<SeedEngine, SqlDialect> = {
  sqlite: {
    series: (from, to) =>
      `(with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to}) select i from s) as n`,
    pad: (expr, width) => `printf('%0${width}d', ${expr})`,
    iso: (secs) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${secs}, 'unixepoch')`,
  },
  postgres: {
    series: (from, to) => `generate_series(${from}::int, ${to}::int) as n(i)`,
    pad: (expr, width) => `lpad((${expr})::text, ${width}, '0')`,
    iso: (secs) => `to_char(to_timestamp(${secs}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  },
}

/** SQL expressions of row `n.i`, shared by every table's INSERT. */
function expressions(d: SqlDialect, seed: VolumeSeed) {
  const nowSecs = Math.floor(seed.now.getTime() / 1000)
  const step = YEAR_SECONDS / seed.submissions
  const id = (prefix: string, expr = 'n.i') => `'${prefix}' || ${d.pad(expr, 23)}`
  const mine = 'n.i % 10 < 6'
  const account = `case when ${mine} then '${seed.accountId}' else ${id('acct_v', `n.i % ${NOISE_ACCOUNTS}`)} end`
  // Statuses drawn from (i / 10) % 100, independent of the account and environment (i % 10).
  const s = '((n.i / 10) % 100)'
  const status = `case when ${s} < 45 then 'completed' when ${s} < 60 then 'sent' when ${s} < 70 then 'viewed'
    when ${s} < 75 then 'partially_signed' when ${s} < 85 then 'cancelled' when ${s} < 90 then 'expired'
    when ${s} < 95 then 'declined' else 'created' end`
  const template = `case when n.i % 2 = 0 then ${id('tpl_w')} else ${id('tpl_x', `(case when ${mine} then 0 else 1 + n.i % ${NOISE_ACCOUNTS} end) * 100 + n.i % ${TEMPLATES_PER_ACCOUNT}`)} end`
  return {
    id,
    account,
    environment: `case when n.i % 10 < 5 or n.i % 10 = 9 then 'test' else 'live' end`,
    status,
    template,
    createdAt: (plusSeconds = 0) =>
      d.iso(`${nowSecs} - cast((${seed.submissions} - n.i) * ${step} as integer) + ${plusSeconds}`),
  }
}

/** The statements that write rows from..to of every table, in foreign-key order. */
function statements(engine: SeedEngine, seed: VolumeSeed, from: number, to: number): string[] {
  const d = DIALECTS[engine]
  const e = expressions(d, seed)
  const series = d.series(String(from), String(to))
  const signed = `${e.status} in ('completed', 'partially_signed')`
  const submitterStatus = (p: number) =>
    `case when ${e.status} = 'completed' then 'signed' when ${e.status} = 'partially_signed' then ${p === 0 ? "'signed'" : "'opened'"}
     when ${e.status} = 'declined' then 'declined' when ${e.status} in ('viewed') then 'opened' else 'pending' end`
  const submitters = (p: number) => `
    insert into submitters (id, account_id, environment, submission_id, position, role, email, name, external_id,
      metadata, status, send_email, require_email_2fa, signing_slug, ${'"values"'}, created_at, updated_at, signed_at)
    select ${e.id(`sbm_${p}`)}, ${e.account}, ${e.environment}, ${e.id('sub_v')}, ${p}, 'signer${p}',
      'signer' || n.i || '@example.eu', 'Signer ' || n.i, 'crm-' || n.i, '{}', ${submitterStatus(p)}, 1, 0,
      ${e.id(`slug${p}v`)} || 'abcdefghij', '{}', ${e.createdAt()}, ${e.createdAt(3600)},
      case when ${signed} then ${e.createdAt(3600)} else null end
    from ${series} ${p === 1 ? 'where n.i % 3 = 0' : ''}`
  const event = (k: number, type: string, where = '') => `
    insert into events (id, account_id, environment, type, submission_id, submitter_id, data, created_at)
    select ${e.id(`evt_${k}`)}, ${e.account}, ${e.environment}, ${type}, ${e.id('sub_v')}, ${k >= 2 ? e.id('sbm_0') : 'null'},
      '{"id":"' || ${e.id('sub_v')} || '"}', ${e.createdAt(k * 600)}
    from ${series} ${where}`
  const finalType = `case ${e.status} when 'completed' then 'submission.completed' when 'cancelled' then 'submission.cancelled'
    when 'declined' then 'submission.declined' when 'expired' then 'submission.expired' else 'submitter.signed' end`
  return [
    `insert into templates (id, account_id, environment, name, metadata, status, created_via, internal, documents, fields,
       created_at, updated_at, archived_at)
     select ${e.id('tpl_w')}, ${e.account}, ${e.environment}, 'Contract ' || n.i, '{}', 'archived', 'api', 1, '[]', '[]',
       ${e.createdAt()}, ${e.createdAt()}, ${e.createdAt()}
     from ${series} where n.i % 2 = 0`,
    `insert into submissions (id, account_id, environment, template_id, status, send_email, signing_order, metadata,
       created_at, updated_at, completed_at, cancelled_at, declined_at, all_signed_at)
     select ${e.id('sub_v')}, ${e.account}, ${e.environment}, ${e.template}, ${e.status}, 1, 'preserved',
       '{"order":"' || n.i || '"}', ${e.createdAt()}, ${e.createdAt(3600)},
       case when ${e.status} = 'completed' then ${e.createdAt(3600)} else null end,
       case when ${e.status} = 'cancelled' then ${e.createdAt(3600)} else null end,
       case when ${e.status} = 'declined' then ${e.createdAt(3600)} else null end,
       case when ${e.status} = 'completed' then ${e.createdAt(3600)} else null end
     from ${series}`,
    submitters(0),
    submitters(1),
    event(0, "'submission.created'"),
    event(1, "'submission.sent'"),
    event(2, "'submitter.opened'", `where ${e.status} not in ('created', 'sent', 'cancelled', 'expired')`),
    event(3, finalType, `where ${e.status} not in ('created', 'sent', 'viewed')`),
    `insert into signatures (id, account_id, environment, submitter_id, submission_id, kind, signed_at)
     select ${e.id('sig_v')}, ${e.account}, ${e.environment}, ${e.id('sbm_0')}, ${e.id('sub_v')}, 'signed', ${e.createdAt(3600)}
     from ${series} where ${signed}`,
    `insert into jobs (id, kind, payload, state, attempt, max_attempts, run_at, created_at, updated_at)
     select ${e.id('job_v')}, 'mail', '{}', 'done', 1, 8, ${e.createdAt()}, ${e.createdAt()}, ${e.createdAt(5)}
     from ${series}`,
  ]
}

/** The noise accounts and the shared templates (17 per account), written once. */
async function seedAccounts(db: Kysely<Tables>, seed: VolumeSeed): Promise<void> {
  const created = seed.now.toISOString()
  const accounts = Array.from({ length: NOISE_ACCOUNTS }, (_, a) => ({
    id: `acct_v${String(a).padStart(23, '0')}`,
    name: `Noise ${a}`,
    owner_email: null,
    created_at: created,
  }))
  await db.insertInto('accounts').values(accounts).execute()
  const templates = Array.from({ length: (NOISE_ACCOUNTS + 1) * TEMPLATES_PER_ACCOUNT }, (_, j) => {
    const a = Math.floor(j / TEMPLATES_PER_ACCOUNT)
    const k = j % TEMPLATES_PER_ACCOUNT
    return {
      id: seededTemplateId(a * 100 + k),
      account_id: a === 0 ? seed.accountId : accounts[a - 1]!.id,
      environment: 'test' as const,
      name: `Template ${k}`,
      slug: null,
      external_id: null,
      metadata: '{}',
      status: 'active' as const,
      created_via: 'api' as const,
      internal: 0,
      documents: '[]',
      fields: '[]',
      created_at: created,
      updated_at: created,
      archived_at: null,
    }
  })
  await db.insertInto('templates').values(templates).execute()
}

/** Writes the volume, then ANALYZE; returns the seconds it took. */
export async function seedVolume(db: Kysely<Tables>, engine: SeedEngine, seed: VolumeSeed): Promise<number> {
  const started = performance.now()
  await seedAccounts(db, seed)
  const batch = seed.batch ?? 100_000
  for (let from = 1; from <= seed.submissions; from += batch) {
    const to = Math.min(seed.submissions, from + batch - 1)
    await db.transaction().execute(async (tx) => {
      for (const text of statements(engine, seed, from, to)) await sql.raw(text).execute(tx)
    })
  }
  for (const text of REBUILD_SIGNATURE_DAYS_SQL) await sql.raw(text).execute(db)
  // What autovacuum does after a bulk insert (statistics and the visibility map); SQLite's planner
  // reads sqlite_stat1, which only ANALYZE writes.
  // On PostgreSQL only our tables: a bare VACUUM would visit every schema of a shared database.
  const tables = 'accounts, templates, submissions, submitters, events, signatures, signature_days, jobs'
  await sql.raw(engine === 'postgres' ? `vacuum analyze ${tables}` : 'analyze').execute(db)
  // SQLite: the WAL back into the database file now, as a server's steady state has it, rather than
  // in the server's first write (a checkpoint of gigabytes, which stalled that request at 1 M).
  if (engine === 'sqlite') await sql.raw('pragma wal_checkpoint(truncate)').execute(db)
  return (performance.now() - started) / 1000
}
