// The only code that changes a submission's status. Each change writes, in the caller's
// transaction: the row (guarded by the status it was read with), the journal event, and the
// outbox job that will deliver it to webhook endpoints — all or nothing.
import type { Scope, SubmissionStatus, SubmissionsTable, Tx } from '../db/tables.ts'
import type { ApiError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import type { EventType } from '../events/event-types.ts'
import { enqueueJob } from '../jobs/job-store.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import { moveFrom, type SubmissionTrigger } from './submission-moves.ts'
import { snapshotSubmission } from './submission-snapshot.ts'

export interface LifecycleContext {
  clock: Clock
  ids: IdGenerator
  config: { publicUrl: string }
}

/** Job kind that fans a webhook-deliverable event out to the account's endpoints. */
export const PUBLISH_EVENT_JOB = 'events.publish'

function scopeOf(row: Pick<SubmissionsTable, 'account_id' | 'environment'>): Scope {
  return { accountId: row.account_id, environment: row.environment }
}

/** Journal event with the submission as it now is; submission events also go to the outbox. */
export async function recordSubmissionEvent(
  tx: Tx,
  ctx: LifecycleContext,
  submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>,
  type: EventType,
  submitterId: string | null = null,
): Promise<string> {
  const object = await snapshotSubmission(tx, ctx.config.publicUrl, submission.id)
  const eventId = await appendEvent(tx, ctx, scopeOf(submission), {
    type,
    submissionId: submission.id,
    submitterId,
    data: { object },
  })
  if (type.startsWith('submission.')) {
    await enqueueJob(tx, ctx, { kind: PUBLISH_EVENT_JOB, payload: { event_id: eventId } })
  }
  return eventId
}

const STAMPS: Partial<Record<SubmissionStatus, 'completed_at' | 'cancelled_at'>> = {
  completed: 'completed_at',
  cancelled: 'cancelled_at',
}

/**
 * Moves a submission by `trigger` from the status it was read with. A concurrent change (another
 * request moved it first) is caught by the status guard in the UPDATE and refused like any
 * move that does not apply.
 */
export async function applySubmissionMove(
  tx: Tx,
  ctx: LifecycleContext,
  submission: SubmissionsTable,
  trigger: SubmissionTrigger,
  refusal: () => ApiError,
): Promise<SubmissionsTable> {
  const move = moveFrom(submission.status, trigger)
  if (!move) throw refusal()
  const at = toIso(ctx.clock.now())
  const stamp = STAMPS[move.to]
  const updated = await tx
    .updateTable('submissions')
    .set({ status: move.to, updated_at: at, ...(stamp ? { [stamp]: at } : {}) })
    .where('id', '=', submission.id)
    .where('status', '=', submission.status)
    .returningAll()
    .executeTakeFirst()
  if (!updated) throw refusal()
  await recordSubmissionEvent(tx, ctx, updated, move.event)
  return updated
}
