// docs/api.md#statuses-and-moves: the moves of a submitter, from where, and the journal event each
// records (docs/api.md#events: `submitter.opened` and `submitter.signed` are journal-only; a
// decline is journaled as the submission's `submission.declined`). Pure: apply-submitter-move.ts
// alone writes a submitter status.
import type { GroupMemberStatus } from '../db/signer-tables.ts'
import type { SubmitterStatus } from '../db/tables.ts'

/** Every submitter status (docs/api.md#statuses-and-moves); the API's and the events' enum. */
export const SUBMITTER_STATUSES = [
  'pending',
  'opened',
  'signed',
  'declined',
  'pre_signed',
] as const satisfies readonly SubmitterStatus[]

/** Every status of a signer group's member (docs/api.md#signer-groups). */
export const MEMBER_STATUSES = [
  'pending',
  'signed',
  'superseded',
  'declined',
] as const satisfies readonly GroupMemberStatus[]

export type SubmitterTrigger = 'open' | 'sign' | 'decline'

interface SubmitterMove {
  from: readonly SubmitterStatus[]
  to: SubmitterStatus
  event: 'submitter.opened' | 'submitter.signed' | null
}

// The API leaves other submitter moves open (docs/api.md#statuses-and-moves). Decided: nothing
// returns a signer to `pending`; signing or declining without opening first is allowed (an API
// client may post directly).
export const SUBMITTER_MOVES: Record<SubmitterTrigger, SubmitterMove> = {
  open: { from: ['pending'], to: 'opened', event: 'submitter.opened' },
  sign: { from: ['pending', 'opened'], to: 'signed', event: 'submitter.signed' },
  decline: { from: ['pending', 'opened'], to: 'declined', event: null },
}

/** A signer who signed, declined or was pre-signed has finished: nothing moves them again. */
export const FINISHED_SUBMITTER_STATUSES: readonly SubmitterStatus[] = ['signed', 'declined', 'pre_signed']

export function submitterMoveFrom(status: SubmitterStatus, trigger: SubmitterTrigger): SubmitterMove | null {
  const move = SUBMITTER_MOVES[trigger]
  return move.from.includes(status) ? move : null
}
