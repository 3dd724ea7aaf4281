// `state` in docs/api.md#the-signers-form: what the signer's page shows, from the submission, the
// signer and the others before them. Pure.
import type { GroupMembersTable, SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import { ApiError } from '../errors.ts'

export const SIGNER_STATES = [
  'ready',
  'email_2fa_required',
  'waiting_for_others',
  'signed',
  'declined',
  'completed',
  'expired',
  'cancelled',
  'signed_by_other',
] as const
export type SignerState = (typeof SIGNER_STATES)[number]

const DONE = new Set(['signed', 'pre_signed'])

export function signerState(
  submission: Pick<SubmissionsTable, 'status' | 'expires_at' | 'signing_order'>,
  submitter: Pick<SubmittersTable, 'status' | 'position' | 'require_email_2fa'>,
  submitters: Array<Pick<SubmittersTable, 'status' | 'position'>>,
  now: Date,
  emailVerified: boolean,
  member: Pick<GroupMembersTable, 'status'> | null = null,
): SignerState {
  // docs/api.md#signer-groups: another member signed for the role; this link has ended, whatever
  // became of the submission since.
  if (member?.status === 'superseded') return 'signed_by_other'
  if (submission.status === 'cancelled') return 'cancelled'
  if (submission.status === 'completed') return 'completed'
  if (submission.status === 'declined' || submitter.status === 'declined') return 'declined'
  // Past expires_at the link is dead even before the expiry job has moved the submission.
  if (submission.status === 'expired' || (submission.expires_at && new Date(submission.expires_at) <= now))
    return 'expired'
  if (DONE.has(submitter.status)) return 'signed'
  if (submitter.require_email_2fa === 1 && !emailVerified) return 'email_2fa_required'
  const earlierPending = submitters.some((s) => s.position < submitter.position && !DONE.has(s.status))
  if (submission.signing_order === 'preserved' && earlierPending) return 'waiting_for_others'
  return 'ready'
}

/** docs/signing.md#when-a-request-is-taken-back: once the submission ended, its links reveal nothing more. */
const ENDED: ReadonlySet<SignerState> = new Set(['cancelled', 'expired', 'declined', 'signed_by_other'])

export function hasEnded(state: SignerState): boolean {
  return ENDED.has(state)
}

/** 410 `submission_not_active` for what an ended link asks to see. */
export function endedError(state: SignerState): ApiError {
  const why =
    state === 'cancelled'
      ? 'was cancelled by the sender'
      : state === 'expired'
        ? 'has expired'
        : state === 'signed_by_other'
          ? 'was signed by another member of your group'
          : 'was declined'
  return new ApiError(
    'submission_not_active',
    `This document ${why}; it can no longer be viewed with this link.`,
  )
}
