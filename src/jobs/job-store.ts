// The durable outbox (security-notes "Jobs, crashes and fences"): rows written inside the business
// transaction, claimed with a lease and an attempt number, completed only by the attempt that holds
// the lease. Knows no job kind: those are declared in job-catalogue.ts.
import type { Engine } from '../db/dialect.ts'
import { lockForClaim } from '../db/dialect.ts'
import type { Db, Executor, JobsTable, Tx } from '../db/tables.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'

export interface NewJob {
  kind: string
  payload: unknown
  runAt?: Date
  maxAttempts?: number
}

export interface ClaimedJob {
  id: string
  kind: string
  payload: unknown
  attempt: number
  maxAttempts: number
}

/** Enqueues inside the caller's transaction: the job exists exactly when the change that needs it does. */
export async function enqueueJob(
  tx: Tx,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  job: NewJob,
): Promise<string> {
  const id = ids.next('job')
  const now = toIso(clock.now())
  await tx
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      state: 'pending',
      attempt: 0,
      max_attempts: job.maxAttempts ?? 1,
      run_at: toIso(job.runAt ?? clock.now()),
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  return id
}

/**
 * Claims the oldest due job: pending and due, or running with a lapsed lease (its worker died).
 * The attempt number goes up on every claim and fences completion.
 */
export async function claimJob(
  db: Db,
  engine: Engine,
  clock: Clock,
  leaseMs: number,
): Promise<ClaimedJob | null> {
  const now = clock.now()
  return db.transaction().execute(async (tx) => {
    const due = await lockForClaim(
      engine,
      tx
        .selectFrom('jobs')
        .select(['id', 'attempt'])
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', toIso(now))]),
            eb.and([eb('state', '=', 'running'), eb('locked_until', '<=', toIso(now))]),
          ]),
        )
        .orderBy('run_at')
        .limit(1),
    ).executeTakeFirst()
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
    return row ? toClaimed(row) : null
  })
}

function toClaimed(row: Pick<JobsTable, 'id' | 'kind' | 'payload' | 'attempt' | 'max_attempts'>): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    payload: JSON.parse(row.payload),
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
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
