// Runs due jobs from the outbox: claim, look the kind up in the catalogue, run, complete or reschedule.
import type { FastifyBaseLogger } from 'fastify'
import { type Engine, isDatabaseUnavailable } from '../db/dialect.ts'
import type { Db } from '../db/tables.ts'
import type { Clock } from '../lib/clock.ts'
import { Outage } from '../lib/outage.ts'
import { JobBell } from './job-bell.ts'
import { type ClaimedJob, claimJob, completeJob, failJob } from './job-store.ts'

export interface JobKind {
  /** Seconds after the first attempt's failure for each further attempt; empty: no retry. */
  retrySchedule: number[]
  /** Must be idempotent, keyed by the job id: a job may run again after a crash. */
  handle(payload: unknown, job: ClaimedJob): Promise<void>
}

export type JobCatalogue = Record<string, JobKind>

/**
 * Thrown by a handler for a failure no retry can mend (a mail server's permanent rejection): the
 * job is marked dead at once, whatever its retry schedule, and logged at error level.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}

export interface WorkerContext {
  db: Db
  engine: Engine
  clock: Clock
  logger: FastifyBaseLogger
  catalogue: JobCatalogue
  leaseMs?: number
  /** Rung by this process's app after a write: the idle wait ends at once (issue #11). */
  jobBell?: JobBell
  /** The database's outage, shared with the process's other loops; the loop's own otherwise. */
  dbOutage?: Outage
}

/**
 * A job whose handler met the database away is tried again this soon, whatever its schedule: an
 * outage is nobody's failure and must not use up its attempts or mark it dead (issue #19).
 */
export const DATABASE_RETRY_MS = 5000

/** The kind's wait before the next attempt after this one failed; undefined when none is left. */
function scheduledDelayMs(kind: JobKind, job: ClaimedJob): number | undefined {
  const seconds = kind.retrySchedule[job.attempt - 1]
  return seconds === undefined ? undefined : seconds * 1000
}

/** Runs one due job; false when none is due. */
export async function runOneJob(ctx: WorkerContext): Promise<boolean> {
  const job = await claimJob(ctx.db, ctx.engine, ctx.clock, ctx.leaseMs ?? 60_000)
  if (!job) return false
  const kind = ctx.catalogue[job.kind]
  const log = ctx.logger.child({ job_id: job.id, job_kind: job.kind, attempt: job.attempt })
  if (!kind) {
    log.error('unknown job kind: marked dead')
    await failJob(ctx.db, ctx.clock, job, `unknown job kind ${job.kind}`, null)
    return true
  }
  try {
    await kind.handle(job.payload, job)
    if (!(await completeJob(ctx.db, ctx.clock, job)))
      log.warn('job finished after its lease lapsed; newer attempt kept')
  } catch (error) {
    const permanent = error instanceof PermanentJobError
    const outage = !permanent && isDatabaseUnavailable(error)
    const delayMs = outage ? DATABASE_RETRY_MS : permanent ? undefined : scheduledDelayMs(kind, job)
    const retryAt = delayMs === undefined ? null : new Date(ctx.clock.now().getTime() + delayMs)
    if (permanent) log.error({ err: error }, 'job failed permanently; not retried')
    else if (outage) log.warn({ err: error, retry_at: retryAt }, 'job met the database away; will retry')
    else
      log.warn(
        { err: error, retry_at: retryAt },
        retryAt ? 'job failed; will retry' : 'job failed; no retry left',
      )
    await failJob(ctx.db, ctx.clock, job, (error as Error).message ?? String(error), retryAt)
  }
  return true
}

/** Runs every job due now, one after another; returns how many ran. */
export async function drainJobs(ctx: WorkerContext): Promise<number> {
  let count = 0
  while (await runOneJob(ctx)) count++
  return count
}

export interface Housekeeping {
  everyMs: number
  run(): Promise<void>
}

/**
 * The worker loop of `paraph worker` / `paraph serve`: polls until the signal aborts, and runs the
 * housekeeping tasks (purges of expired rows) on their own interval. A ring of `ctx.jobBell` ends
 * the idle wait early.
 */
export async function runWorker(
  ctx: WorkerContext,
  signal: AbortSignal,
  { pollMs = 500, housekeeping = [] }: { pollMs?: number; housekeeping?: Housekeeping[] } = {},
): Promise<void> {
  const lastRun = housekeeping.map(() => 0)
  const bell = ctx.jobBell ?? new JobBell()
  const outage = ctx.dbOutage ?? new Outage({ logger: ctx.logger, clock: ctx.clock, what: 'database' })
  while (!signal.aborted) {
    const now = ctx.clock.now().getTime()
    for (const [i, task] of housekeeping.entries()) {
      if (now - lastRun[i]! < task.everyMs) continue
      lastRun[i] = now
      await task.run().catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) outage.failed(error, 'housekeeping')
        else ctx.logger.error({ err: error }, 'housekeeping failed')
      })
    }
    let wait = pollMs
    try {
      const ran = await runOneJob(ctx)
      outage.recovered()
      if (ran) continue
    } catch (error) {
      // Issue #19: the database away is said once, not at every poll, and polled for less and less
      // often until it answers. Anything else is a fault of ours, logged each time.
      if (isDatabaseUnavailable(error)) wait = outage.failed(error, 'job worker')
      else ctx.logger.error({ err: error }, 'worker could not claim a job')
    }
    // Issue #10: the idle wait's abort listener goes when the wait ends (one left behind per poll
    // made Node warn within seconds); an abort that came while a job ran ends the next wait at once.
    await bell.wait(wait, signal)
  }
}
