// docs/api.md#statuses-and-moves: every status a submission can move to, from where, and the event
// it records. Pure: apply-submission-move.ts is the only code that writes a status, and only
// through this table.
import type { SubmissionStatus } from '../db/tables.ts'
import type { SubmissionEventType } from '../events/event-types.ts'

/** Every submission status (docs/api.md#statuses-and-moves). */
export const SUBMISSION_STATUSES = [
  'created',
  'sent',
  'viewed',
  'partially_signed',
  'completed',
  'declined',
  'expired',
  'cancelled',
] as const

export type SubmissionTrigger = 'send' | 'view' | 'sign' | 'complete' | 'decline' | 'expire' | 'cancel'

/** Still waiting for signatures: cancellation, expiry and signing apply only here (docs/api.md#statuses-and-moves). */
export const ACTIVE_STATUSES: readonly SubmissionStatus[] = ['created', 'sent', 'viewed', 'partially_signed']

export const FINAL_STATUSES: readonly SubmissionStatus[] = ['completed', 'declined', 'expired', 'cancelled']

interface Move {
  from: readonly SubmissionStatus[]
  to: SubmissionStatus
  event: SubmissionEventType
}

// The API leaves each move's source states open (docs/api.md#statuses-and-moves).
// Decided: every move needs an active submission; `view` only moves a submission nobody signed yet
// (a later opener does not take a partially signed submission back to viewed).
export const SUBMISSION_MOVES: Record<SubmissionTrigger, Move> = {
  send: { from: ['created'], to: 'sent', event: 'submission.sent' },
  view: { from: ['created', 'sent'], to: 'viewed', event: 'submission.viewed' },
  sign: {
    from: ['created', 'sent', 'viewed', 'partially_signed'],
    to: 'partially_signed',
    event: 'submission.partially_signed',
  },
  complete: { from: ACTIVE_STATUSES, to: 'completed', event: 'submission.completed' },
  decline: { from: ACTIVE_STATUSES, to: 'declined', event: 'submission.declined' },
  expire: { from: ACTIVE_STATUSES, to: 'expired', event: 'submission.expired' },
  cancel: { from: ACTIVE_STATUSES, to: 'cancelled', event: 'submission.cancelled' },
}

/** The move a trigger makes from `status`, or null when it does not apply there. */
export function moveFrom(status: SubmissionStatus, trigger: SubmissionTrigger): Move | null {
  const move = SUBMISSION_MOVES[trigger]
  return move.from.includes(status) ? move : null
}
