// Runs due jobs from the outbox: claim, look the kind up in the catalogue, run, complete or reschedule.
import type { FastifyBaseLogger } from 'fastify'
import { type Engine, isDatabaseUnavailable } from '../db/dialect.ts'
import type { Db } from '../db/tables.ts'
import type { Clock } from '../lib/clock.ts'
import { Outage } from '../lib/outage.ts'
import { type CatalogueEntry, type JobCatalogue, PermanentJobError, payloadProblem } from './define-job.ts'
import type { BoundPeriodicTask } from './define-periodic-task.ts'
import { JobBell } from './job-bell.ts'
import { type ClaimedJob, claimJob, completeJob, failJob } from './job-store.ts'

/** An attempt still running after its kind's `timeoutMs`: abandoned, failed, retried on the schedule. */
export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError'
}

export interface WorkerContext {
  db: Db
  engine: Engine
  clock: Clock
  logger: FastifyBaseLogger
  catalogue: JobCatalogue
  /** How long a claim lasts before another worker may claim the job (JOB_LEASE_SECONDS); 60 s unless given. */
  leaseMs?: number
  /** Rung by this process's app after a write: the idle wait ends at once. */
  jobBell?: JobBell
  /** The database's outage, shared with the process's other loops; the loop's own otherwise. */
  dbOutage?: Outage
}

/**
 * A job whose handler met the database away is tried again this soon, whatever its schedule: an
 * outage is nobody's failure and must not use up its attempts or mark it dead.
 */
export const DATABASE_RETRY_MS = 5000

/** The kind's wait before the next attempt after this one failed; undefined when none is left. */
function scheduledDelayMs(kind: CatalogueEntry, job: ClaimedJob): number | undefined {
  const seconds = kind.retrySchedule[job.attempt - 1]
  return seconds === undefined ? undefined : seconds * 1000
}

/**
 * Runs the attempt within the kind's timeout, if it has one. An abandoned attempt cannot be stopped
 * (a promise has no cancel): it may still finish, which its idempotence makes harmless, and a late
 * failure of it is dropped, the attempt's failure being recorded already.
 */
async function runWithin(kind: CatalogueEntry, job: ClaimedJob): Promise<void> {
  const running = kind.run(job.payload, job)
  if (kind.timeoutMs === undefined) return running
  const ms = kind.timeoutMs
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new JobTimeoutError(`${job.kind} attempt abandoned after its timeout of ${ms} ms`)),
      ms,
    )
  })
  try {
    await Promise.race([running, late])
  } finally {
    clearTimeout(timer)
    running.catch(() => {})
  }
}

/** Why the claimed row cannot run: its payload is not JSON or does not match its kind; null when it can. */
function unrunnable(kind: CatalogueEntry, job: ClaimedJob): string | null {
  if (job.payload === undefined) return `the payload of a ${job.kind} job is not JSON`
  return payloadProblem(kind, job.payload)
}

/** Runs one due job; false when none is due. `onClaimed` is told when a job was claimed, before it runs. */
export async function runOneJob(ctx: WorkerContext, onClaimed?: () => void): Promise<boolean> {
  const job = await claimJob(ctx.db, ctx.engine, ctx.clock, ctx.leaseMs ?? 60_000)
  if (!job) return false
  onClaimed?.()
  const kind = ctx.catalogue.get(job.kind)
  const log = ctx.logger.child({ job_id: job.id, job_kind: job.kind, attempt: job.attempt })
  if (!kind) {
    log.error('unknown job kind: marked dead')
    await failJob(ctx.db, ctx.clock, job, `unknown job kind ${job.kind}`, null)
    return true
  }
  // A row no attempt can run (written by hand, or by a release with another schema) is dead at once.
  const problem = unrunnable(kind, job)
  if (problem) {
    log.error({ problem }, 'job payload unreadable: marked dead')
    await failJob(ctx.db, ctx.clock, job, problem, null)
    return true
  }
  try {
    await runWithin(kind, job)
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

/** Jobs each lane runs before the loop looks at its periodic tasks again. */
export const LANE_BATCH = 25

/** How often a lane with nothing due looks again while another lane runs a job. */
const BUSY_SIBLING_POLL_MS = 200

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/**
 * docs/operations.md#worker-concurrency: one lane claims; as soon as it has a job, `concurrency − 1`
 * more lanes start, and each claims and runs jobs until it has run LANE_BATCH, or none is due and no
 * other lane is running one (while one is, an idle lane looks again every 200 ms: a long job — a
 * bulk send's slice — queues work the others should send meanwhile); true when any ran. A job spends most of its time waiting (its database round trips, SMTP, a webhook
 * receiver), so lanes overlap the waits; each claim is the same fenced claim as between worker
 * processes. An idle worker polls with one claim, as with one lane. A lane's error is thrown once
 * every lane has stopped, so no lane outlives the round.
 */
async function runLanes(ctx: WorkerContext, concurrency: number, signal: AbortSignal): Promise<boolean> {
  // Each lane's outcome is held as a value from its start: a lane failing while the first still
  // runs must not be an unhandled rejection (it would end the process).
  let running = 0
  const lane = async (onClaimed?: () => void): Promise<{ ran: number } | { error: unknown }> => {
    let ran = 0
    try {
      while (ran < LANE_BATCH && !signal.aborted) {
        let claimed = false
        try {
          const did = await runOneJob(ctx, () => {
            claimed = true
            running++
            onClaimed?.()
          })
          if (did) {
            ran++
            continue
          }
        } finally {
          if (claimed) running--
        }
        // Nothing due. While another lane still runs a job, what it queues (a bulk send's mails,
        // the events of its rows) is sent beside it: look again shortly rather than end the round.
        if (running === 0) break
        await pause(BUSY_SIBLING_POLL_MS, signal)
      }
      return { ran }
    } catch (error) {
      return { error }
    }
  }
  const others: Promise<{ ran: number } | { error: unknown }>[] = []
  const startOthers = () => {
    if (others.length > 0) return
    for (let i = 1; i < concurrency; i++) others.push(lane())
  }
  const first = await lane(startOthers)
  const outcomes = [first, ...(await Promise.all(others))]
  const failed = outcomes.find((o) => 'error' in o)
  if (failed && 'error' in failed) throw failed.error
  return outcomes.some((o) => 'ran' in o && o.ran > 0)
}

/**
 * The worker loop of `paraph worker` / `paraph serve`: polls until the signal aborts, runs due jobs
 * `concurrency` at a time (WORKER_CONCURRENCY), and runs the periodic tasks (purges of expired rows,
 * the expiry sweep) on their own interval. A ring of `ctx.jobBell` ends the idle wait early.
 */
export async function runWorker(
  ctx: WorkerContext,
  signal: AbortSignal,
  {
    pollMs = 500,
    periodicTasks = [],
    concurrency = 1,
  }: { pollMs?: number; periodicTasks?: BoundPeriodicTask[]; concurrency?: number } = {},
): Promise<void> {
  const lastRun = periodicTasks.map(() => 0)
  const bell = ctx.jobBell ?? new JobBell()
  const outage = ctx.dbOutage ?? new Outage({ logger: ctx.logger, clock: ctx.clock, what: 'database' })
  while (!signal.aborted) {
    const now = ctx.clock.now().getTime()
    for (const [i, task] of periodicTasks.entries()) {
      if (now - lastRun[i]! < task.everyMs) continue
      lastRun[i] = now
      await task.run().catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) outage.failed(error, 'housekeeping')
        else ctx.logger.error({ err: error, task: task.name }, 'housekeeping failed')
      })
    }
    let wait = pollMs
    try {
      const ran = await runLanes(ctx, concurrency, signal)
      outage.recovered()
      if (ran) continue
    } catch (error) {
      // The database away is said once, not at every poll, and polled for less and less
      // often until it answers. Anything else is a fault of ours, logged each time.
      if (isDatabaseUnavailable(error)) wait = outage.failed(error, 'job worker')
      else ctx.logger.error({ err: error }, 'worker could not claim a job')
    }
    // The idle wait's abort listener goes when the wait ends (one left behind per poll
    // made Node warn within seconds); an abort that came while a job ran ends the next wait at once.
    await bell.wait(wait, signal)
  }
}
