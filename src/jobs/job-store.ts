// The durable outbox (docs/security.md#crash-safe-jobs): rows written inside the business
// transaction, claimed with a lease and an attempt number, completed only by the attempt that holds
// the lease. Knows no job kind: those are declared with defineJob and listed in job-catalogue.ts.

import { sql } from 'kysely'
import type { Static, TSchema } from 'typebox'
import type { Engine } from '../db/dialect.ts'
import { lockForClaim } from '../db/dialect.ts'
import type { Db, Executor, JobsTable, Tx } from '../db/tables.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import { attemptsOf, type JobDeclaration, payloadProblem } from './define-job.ts'

export interface ClaimedJob {
  id: string
  kind: string
  /** The stored payload, parsed; undefined when the stored text is not JSON (JSON has no undefined). */
  payload: unknown
  attempt: number
  maxAttempts: number
  /**
   * How long this claim holds the job (JOB_LEASE_SECONDS): past it another worker may claim it
   * again, so a handler that works in slices (bulk_send.run) ends each well within it.
   */
  leaseMs: number
}

/**
 * Queues a job of kind `job` inside the caller's transaction: the job exists exactly when the change
 * that needs it does. The payload is checked as the worker will read it (after JSON): a payload that
 * does not match the kind's schema is a bug of the caller, thrown here rather than found dead later.
 */
export async function enqueue<Payload extends TSchema>(
  tx: Tx,
  deps: { clock: Clock; ids: IdGenerator },
  job: JobDeclaration<Payload>,
  payload: Static<Payload>,
  options: { runAt?: Date } = {},
): Promise<string> {
  const [id] = await enqueueMany(tx, deps, job, [payload], options)
  return id!
}

/** Queues one job of kind `job` per payload, in one statement (a batch of purges); answers their ids in order. */
export async function enqueueMany<Payload extends TSchema>(
  tx: Tx,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  job: JobDeclaration<Payload>,
  payloads: Static<Payload>[],
  { runAt }: { runAt?: Date } = {},
): Promise<string[]> {
  if (payloads.length === 0) return []
  const now = toIso(clock.now())
  const rows = payloads.map((payload) => {
    const text = JSON.stringify(payload)
    const problem = payloadProblem(job, text === undefined ? undefined : JSON.parse(text))
    if (problem) throw new Error(problem)
    return {
      id: ids.next('job'),
      kind: job.kind,
      payload: text,
      state: 'pending' as const,
      attempt: 0,
      max_attempts: attemptsOf(job),
      run_at: toIso(runAt ?? clock.now()),
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      submission_id: submissionIdOf(payload),
    }
  })
  await tx.insertInto('jobs').values(rows).execute()
  return rows.map((row) => row.id)
}

/** The submission a job is about, kept in its own column: a purge finds the job through an index. */
function submissionIdOf(payload: unknown): string | null {
  const id = (payload as { submission_id?: unknown } | null)?.submission_id
  return typeof id === 'string' ? id : null
}

/**
 * Claims a due job: first one whose lease lapsed (its worker died; it was the oldest due when it was
 * claimed), else the pending job due longest. The attempt number goes up on every claim and fences
 * completion. Two reads (on PostgreSQL both inside one statement: claimOnPostgres), each in the order of its own index and stopped at the first row,
 * so neither the jobs scheduled for later (reminders by the hundred thousand) nor a backlog of due
 * ones is read or sorted: `jobs_lease` (migration 0017) holds only the running jobs, `jobs_due`
 * (state, run_at) reaches the due pending jobs without the future ones. `state` is written as a
 * literal where the partial index must match it: an engine proves a partial index's condition from
 * literals, not from bound parameters (SQLite never does; PostgreSQL not in a generic plan).
 */
export async function claimJob(
  db: Db,
  engine: Engine,
  clock: Clock,
  leaseMs: number,
): Promise<ClaimedJob | null> {
  const now = clock.now()
  if (engine === 'postgres') return claimOnPostgres(db, now, leaseMs)
  return db.transaction().execute(async (tx) => {
    const candidates = tx.selectFrom('jobs').select(['id', 'attempt']).limit(1)
    const due =
      (await lockForClaim(
        engine,
        candidates
          .where('state', '=', sql.lit('running'))
          .where('locked_until', '<=', toIso(now))
          .orderBy('locked_until'),
      ).executeTakeFirst()) ??
      (await lockForClaim(
        engine,
        candidates.where('state', '=', 'pending').where('run_at', '<=', toIso(now)).orderBy('run_at'),
      ).executeTakeFirst())
    if (!due) return null
    const row = await tx
      .updateTable('jobs')
      .set({
        state: 'running',
        attempt: due.attempt + 1,
        locked_until: toIso(new Date(now.getTime() + leaseMs)),
        updated_at: toIso(now),
      })
      .where('id', '=', due.id)
      .where('attempt', '=', due.attempt)
      .returning(['id', 'kind', 'payload', 'attempt', 'max_attempts'])
      .executeTakeFirst()
    return row ? toClaimed(row, leaseMs) : null
  })
}

/**
 * claimJob on PostgreSQL in one statement, so one round trip and one commit instead of five round
 * trips (begin, the two reads, the update, commit): a job's claim was a third of the round trips of
 * a reminder (docs/benchmarks.md#findings). The same two index reads, each locking its first row
 * with SKIP LOCKED (another worker's candidate is passed over, never waited for); the pending one is
 * read only when no lapsed lease was found. The update runs on the locked row, so `attempt + 1` is
 * the fence as in the two-step claim.
 */
async function claimOnPostgres(db: Db, now: Date, leaseMs: number): Promise<ClaimedJob | null> {
  const at = toIso(now)
  const until = toIso(new Date(now.getTime() + leaseMs))
  const { rows } = await sql<Pick<JobsTable, 'id' | 'kind' | 'payload' | 'attempt' | 'max_attempts'>>`
    with lapsed as (
      select id from jobs where state = 'running' and locked_until <= ${at}
      order by locked_until limit 1 for update skip locked
    ), due as (
      select id from jobs where state = 'pending' and run_at <= ${at} and not exists (select 1 from lapsed)
      order by run_at limit 1 for update skip locked
    ), picked as (
      select id from lapsed union all select id from due
    )
    update jobs set state = 'running', attempt = jobs.attempt + 1, locked_until = ${until}, updated_at = ${at}
    from picked where jobs.id = picked.id
    returning jobs.id, jobs.kind, jobs.payload, jobs.attempt, jobs.max_attempts`.execute(db)
  const row = rows[0]
  return row ? toClaimed(row, leaseMs) : null
}

function toClaimed(
  row: Pick<JobsTable, 'id' | 'kind' | 'payload' | 'attempt' | 'max_attempts'>,
  leaseMs: number,
): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    payload: parsePayload(row.payload),
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    leaseMs,
  }
}

/** A row's payload; undefined for text that is not JSON, which the worker marks dead (never a crash). */
function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Marks the attempt done; false when the lease lapsed and a newer attempt owns the job. */
export async function completeJob(db: Executor, clock: Clock, job: ClaimedJob): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'done', locked_until: null, updated_at: toIso(clock.now()) })
    .where('id', '=', job.id)
    .where('attempt', '=', job.attempt)
    .where('state', '=', 'running')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Records a failed attempt: retried at `retryAt`, or dead when there is none. Fenced like completion. */
export async function failJob(
  db: Executor,
  clock: Clock,
  job: ClaimedJob,
  error: string,
  retryAt: Date | null,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: retryAt ? 'pending' : 'dead',
      run_at: retryAt ? toIso(retryAt) : toIso(clock.now()),
      locked_until: null,
      last_error: error.slice(0, 2000),
      updated_at: toIso(clock.now()),
    })
    .where('id', '=', job.id)
    .where('attempt', '=', job.attempt)
    .where('state', '=', 'running')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function findJob(db: Executor, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The job states counted by the metrics: `done` rows are kept for good, so counting them grows with the table. */
export const UNFINISHED_JOB_STATES = ['pending', 'running', 'dead'] as const

/**
 * Jobs by kind and state with the oldest one's creation time, for the metrics' scrape: one grouped
 * query over the unfinished states only, which the (state, run_at) index reaches without the done rows.
 */
export async function countJobsByKindAndState(db: Executor) {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => ['kind', 'state', eb.fn.countAll().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('state', 'in', [...UNFINISHED_JOB_STATES])
    .groupBy(['kind', 'state'])
    .execute()
  return rows.map((row) => ({
    kind: row.kind,
    state: row.state,
    count: Number(row.count),
    oldestCreatedAt: String(row.oldest),
  }))
}
