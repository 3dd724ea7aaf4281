// What every signer act (open, sign, decline, the e-mail code's send and verify) does first, inside
// its transaction: lock the submission, read everyone's status afresh, and refuse what the state does
// not allow (docs/api.md#signing errors). Reading under the lock is what makes two concurrent signs
// of one signer give one success and one 409, and two last signers complete exactly once.
import type { Executor, GroupMembersTable, SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { FINISHED_SUBMITTER_STATUSES } from '../lifecycle/submitter-moves.ts'
import { findMemberOfSubmitter } from '../submissions/group-member-store.ts'
import { actingAs } from '../submissions/signer-groups.ts'
import {
  findSubmissionOfSubmitter,
  lockSubmissionOfSubmitter,
  submittersOf,
} from '../submissions/submission-store.ts'
import { hasVerifiedSession } from './email-code-session.ts'
import type { Signer } from './signer-routes.ts'
import { type SignerState, signerState } from './signer-state.ts'

export interface SigningSession {
  submission: SubmissionsTable
  /** The acting signer as the transaction sees it (as its member acts for a signer group). */
  submitter: SubmittersTable
  /** The group member acting, as the transaction sees them; null for a signer who is no group. */
  member: GroupMembersTable | null
  /** Every submitter of the submission, in signing order. */
  everyone: SubmittersTable[]
  state: SignerState
  /** The request presents a session of this signer, at their current address (email-code-session.ts). */
  emailVerified: boolean
}

/** The session inside the act's transaction, with the submission locked. */
export async function openSession(tx: Tx, deps: Deps, signer: Signer): Promise<SigningSession> {
  return session(tx, deps, signer, await lockSubmissionOfSubmitter(tx, signer.submitter))
}

/** A first look without a lock, to refuse early before any costly check of the values. */
export async function peekSession(deps: Deps, signer: Signer): Promise<SigningSession> {
  const submission = await findSubmissionOfSubmitter(deps.db, signer.submitter)
  if (!submission)
    throw new ApiError('internal_inconsistency', 'The signing link points to a missing submission.')
  return session(deps.db, deps, signer, submission)
}

async function session(
  db: Executor,
  deps: Deps,
  { submitter, member: given, sessions }: Signer,
  submission: SubmissionsTable,
): Promise<SigningSession> {
  const scope = { accountId: submitter.account_id, environment: submitter.environment }
  const everyone = (await submittersOf(db, scope, [submission.id])) as SubmittersTable[]
  const found = everyone.find((s) => s.id === submitter.id)
  if (!found) throw new ApiError('internal_inconsistency', 'The signer vanished from the submission; retry.')
  // A member removed meanwhile (PATCH …/members) holds a link that names no one any more.
  const member = given && (await findMemberOfSubmitter(db, found, given.id))
  if (given && !member) throw new ApiError('resource_not_found', 'This signing link does not exist.')
  const current = actingAs(found, member ?? null)
  const emailVerified = hasVerifiedSession(deps, sessions, current)
  const state = signerState(submission, current, everyone, deps.clock.now(), emailVerified, member ?? null)
  return { submission, submitter: current, member: member ?? null, everyone, state, emailVerified }
}

const FINISHED_WORDS: Record<string, string> = {
  signed: 'signed',
  pre_signed: 'been signed for at creation',
  declined: 'declined',
}

/**
 * Why `action` is refused in this session, or null when it may proceed. `email_code` (send or verify
 * a code) needs neither a verified session nor the signer's turn: a later signer may verify early.
 * `progress` (saving what is filled in) is refused where `sign` is.
 */
export function refusalOf(
  session: SigningSession,
  action: 'sign' | 'decline' | 'email_code' | 'progress',
): ApiError | null {
  const { submitter, state, submission } = session
  if (state === 'signed_by_other') {
    // The group's row, as the signature left it: the name and address of the member who signed.
    const group = session.everyone.find((s) => s.id === submitter.id)
    const who = group?.name ? `${group.name} (${group.email})` : (group?.email ?? 'someone')
    return new ApiError(
      'submitter_already_finalized',
      `${who}, another member of your group, signed this document for your role; nothing more can be done with this link.`,
    )
  }
  if (FINISHED_SUBMITTER_STATUSES.includes(submitter.status)) {
    return new ApiError(
      'submitter_already_finalized',
      `You have already ${FINISHED_WORDS[submitter.status] ?? submitter.status}; nothing more can be done with this link.`,
    )
  }
  if (state === 'cancelled' || state === 'expired' || state === 'declined') {
    const why = {
      cancelled: 'was cancelled by the sender',
      expired: 'has expired',
      declined: 'was declined',
    }[state]
    const verb = { sign: 'signed', decline: 'declined', email_code: 'opened', progress: 'filled in' }[action]
    return new ApiError('submission_not_active', `This document ${why}; it can no longer be ${verb}.`)
  }
  if (state === 'email_2fa_required' && action !== 'email_code') {
    return new ApiError('email_2fa_required', 'Enter the code sent to your e-mail address first.')
  }
  // Saving progress is filling in: only on the signer's turn, like signing.
  if ((action === 'sign' || action === 'progress') && state === 'waiting_for_others') {
    return new ApiError(
      'not_your_turn',
      'Another signer must sign before you; you will be told when it is your turn.',
    )
  }
  if (submission.all_signed_at !== null) {
    return new ApiError('submitter_already_finalized', 'Every signer has signed this document already.')
  }
  return null
}
