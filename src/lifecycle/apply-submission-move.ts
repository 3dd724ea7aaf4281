// The only code that changes a submission's status. Each change writes, in the caller's
// transaction: the row (guarded by the status it was read with), the journal event, and the
// outbox job that will deliver it to webhook endpoints — all or nothing; an ended submission's
// saved progress is deleted with the move. The moves themselves are
// the table of submission-moves.ts; a submitter's are apply-submitter-move.ts.
import type { Scope, SubmissionStatus, SubmissionsTable, Tx } from '../db/tables.ts'
import { deleteSubmissionProgress } from '../documents/signing-progress-store.ts'
import type { ApiError } from '../errors.ts'
import { appendEvents } from '../events/event-store.ts'
import { type EventType, isWebhookEventType } from '../events/event-types.ts'
import { enqueue, enqueueMany } from '../jobs/job-store.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import type { ActingMember, PurgeDetails, ReminderDetails } from './submission-event-data.ts'
import { finalizeSubmissionDeclaration, publishEventDeclaration } from './submission-jobs.ts'
import { FINAL_STATUSES, moveFrom, type SubmissionTrigger } from './submission-moves.ts'
import { snapshotSubmissions } from './submission-snapshot.ts'

export interface LifecycleContext {
  clock: Clock
  ids: IdGenerator
  config: { publicUrl: string }
}

function scopeOf(row: Pick<SubmissionsTable, 'account_id' | 'environment'>): Scope {
  return { accountId: row.account_id, environment: row.environment }
}

/** Who caused a move, when a signer did: their submitter id and the request's address and agent. */
export interface Actor {
  submitterId: string
  ip: string
  userAgent: string | null
  /** The member of a signer group who acted for it (docs/api.md#signer-groups), named in the event. */
  member?: ActingMember | null
}

/**
 * What an event adds beside the submission (`submitter.reminded`: whom, and the reminder;
 * `submission.purged`: the cause), typed by the schemas the OpenAPI publishes (submission-event-data.ts).
 */
export interface About {
  submitterId: string | null
  data: ReminderDetails | PurgeDetails
}

/**
 * Journal event with the submission as it now is (`data.object`); the events webhooks may subscribe
 * to (submission events, `submitter.reminded`) also go to the outbox.
 */
export async function recordSubmissionEvent(
  tx: Tx,
  ctx: LifecycleContext,
  submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>,
  type: EventType,
  actor: Actor | null = null,
  about: About | null = null,
): Promise<string> {
  const [eventId] = await recordSubmissionEvents(tx, ctx, type, [{ submission, actor, about }])
  return eventId!
}

/**
 * The same event for several submissions of one scope (a batch of purges), each with its own
 * snapshot, written in a few statements whatever their number; answers the event ids in order.
 */
export async function recordSubmissionEvents(
  tx: Tx,
  ctx: LifecycleContext,
  type: EventType,
  items: Array<{
    submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>
    actor?: Actor | null
    about?: About | null
  }>,
): Promise<string[]> {
  const first = items[0]
  if (!first) return []
  const objects = await snapshotSubmissions(
    tx,
    ctx.config.publicUrl,
    items.map((item) => item.submission.id),
  )
  const eventIds = await appendEvents(
    tx,
    ctx,
    scopeOf(first.submission),
    items.map(({ submission, actor, about }, i) => ({
      type,
      submissionId: submission.id,
      submitterId: actor?.submitterId ?? about?.submitterId ?? null,
      data: { ...about?.data, ...(actor?.member ? { member: actor.member } : {}), object: objects[i] },
      actor,
    })),
  )
  if (isWebhookEventType(type)) {
    await enqueueMany(
      tx,
      ctx,
      publishEventDeclaration,
      eventIds.map((eventId) => ({ event_id: eventId })),
    )
  }
  return eventIds
}

const STAMPS: Partial<Record<SubmissionStatus, 'completed_at' | 'cancelled_at' | 'declined_at'>> = {
  completed: 'completed_at',
  cancelled: 'cancelled_at',
  declined: 'declined_at',
}

/** What completion records with the move: the sealed final PDF and the audit trail (never one without the other). */
export type CompletionRecord = Pick<
  SubmissionsTable,
  'final_pdf_key' | 'final_pdf_sha256' | 'audit_pdf_key' | 'audit_pdf_sha256' | 'audit_json_key'
> & {
  /** The seal's time, which the audit trail states as the completion time. */
  completed_at: string
}

export interface MoveOptions {
  actor?: Actor
  /** Required with `complete`, refused otherwise. */
  completion?: CompletionRecord
}

/**
 * Moves a submission by `trigger` from the status it was read with. A concurrent change (another
 * request moved it first) is caught by the guards in the UPDATE and refused like any move that
 * does not apply. Once every signer has signed (`all_signed_at`), the final PDF is being made:
 * only `complete` applies from then on, so nothing can cancel or expire a fully signed submission.
 */
export async function applySubmissionMove(
  tx: Tx,
  ctx: LifecycleContext,
  submission: SubmissionsTable,
  trigger: SubmissionTrigger,
  refusal: () => ApiError,
  options: MoveOptions = {},
): Promise<SubmissionsTable> {
  const move = moveFrom(submission.status, trigger)
  const completing = trigger === 'complete'
  if (!move || completing !== (submission.all_signed_at !== null)) throw refusal()
  if (completing !== (options.completion !== undefined)) {
    throw new Error(`the ${trigger} move ${completing ? 'needs' : 'takes no'} completion record`)
  }
  const at = toIso(ctx.clock.now())
  const stamp = STAMPS[move.to]
  const updated = await tx
    .updateTable('submissions')
    .set({
      status: move.to,
      updated_at: at,
      ...(stamp ? { [stamp]: at } : {}),
      // docs/privacy.md#retention-policy: a policy counts from the end, whichever end it was.
      ...(FINAL_STATUSES.includes(move.to) ? { ended_at: at } : {}),
      ...(options.completion ? { ...options.completion, ended_at: options.completion.completed_at } : {}),
      ...(completing ? { finalize_error: null } : {}),
    })
    .where('id', '=', submission.id)
    .where('status', '=', submission.status)
    .where('all_signed_at', completing ? 'is not' : 'is', null)
    .returningAll()
    .executeTakeFirst()
  if (!updated) throw refusal()
  if (FINAL_STATUSES.includes(updated.status)) {
    // docs/api.md#saving-progress: what signers saved and never signed ends with the submission.
    await deleteSubmissionProgress(tx, updated)
    // docs/api.md#reminders: the reminders stop for good with the submission.
    await stopReminders(tx, updated)
  }
  await recordSubmissionEvent(tx, ctx, updated, move.event, options.actor ?? null)
  return updated
}

/** No further automatic reminder for any signer of the submission (the jobs find nothing due). */
async function stopReminders(
  tx: Tx,
  submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>,
) {
  await tx
    .updateTable('submitters')
    .set({ next_reminder_at: null })
    .where('submission_id', '=', submission.id)
    .where('account_id', '=', submission.account_id)
    .where('environment', '=', submission.environment)
    .where('next_reminder_at', 'is not', null)
    .execute()
}

/**
 * The last signer signed (docs/api.md#statuses-and-moves): the submission is fenced for completion,
 * keeping its status until the final PDF is recorded with `complete`, and the job that makes it is
 * queued in the same transaction: a crash can never leave a fully signed submission without its
 * job. False when the submission was no longer active.
 */
export async function markAllSigned(
  tx: Tx,
  ctx: LifecycleContext,
  submission: SubmissionsTable,
): Promise<boolean> {
  const at = toIso(ctx.clock.now())
  const result = await tx
    .updateTable('submissions')
    .set({ all_signed_at: at, updated_at: at })
    .where('id', '=', submission.id)
    .where('status', '=', submission.status)
    .where('all_signed_at', 'is', null)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) return false
  await enqueue(tx, ctx, finalizeSubmissionDeclaration, { submission_id: submission.id })
  return true
}
