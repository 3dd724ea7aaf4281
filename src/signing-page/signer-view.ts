// What the signer's read-only routes (the form, the document as it stands) load first: the
// submission, its documents and fields, every submitter, and the state the signer is in.
import type { GroupMembersTable, SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { findMemberOfSubmitter } from '../submissions/group-member-store.ts'
import { actingAs } from '../submissions/signer-groups.ts'
import { findSubmissionOfSubmitter, submittersOf } from '../submissions/submission-store.ts'
import { findTemplateLayout, type TemplateRecord } from '../templates/template-store.ts'
import { type SignerState, signerState } from './signer-state.ts'

export interface SignerView {
  submission: SubmissionsTable
  template: Pick<TemplateRecord, 'documents' | 'fields'>
  /** Every submitter of the submission, in signing order (a signer group as its own row). */
  everyone: SubmittersTable[]
  /** The signer as read now: for a group member, the group as that member acts for it. */
  me: SubmittersTable
  /** The group member, as read now; null for a signer who is no group. */
  member: GroupMembersTable | null
  state: SignerState
  /** Whether the request may see what a guarded signer's e-mail code withholds. */
  verified: boolean
}

const missing = () =>
  new ApiError('internal_inconsistency', 'The signing link points to a missing submission.')

/**
 * The view of `submitter` (and of `member`, for a group member's link): `verified` says whether
 * the request presents a verified session of the signer as read now (or a grant standing for one).
 */
export async function signerView(
  deps: Deps,
  submitter: SubmittersTable,
  member: GroupMembersTable | null,
  verified: (me: SubmittersTable) => boolean,
): Promise<SignerView> {
  const scope = { accountId: submitter.account_id, environment: submitter.environment }
  const submission = await findSubmissionOfSubmitter(deps.db, submitter)
  if (!submission) throw missing()
  const [template, everyone, current] = await Promise.all([
    findTemplateLayout(deps.db, scope, submission.template_id),
    submittersOf(deps.db, scope, [submission.id]) as Promise<SubmittersTable[]>,
    member ? findMemberOfSubmitter(deps.db, submitter, member.id) : Promise.resolve(null),
  ])
  const row = everyone.find((s) => s.id === submitter.id)
  if (!template || !row) throw missing()
  // A member removed meanwhile (PATCH …/members) holds a link that names no one any more.
  if (member && !current) throw new ApiError('resource_not_found', 'This signing link does not exist.')
  const me = actingAs(row, current ?? null)
  const unlocked = verified(me)
  const state = signerState(submission, me, everyone, deps.clock.now(), unlocked, current ?? null)
  return { submission, template, everyone, me, member: current ?? null, state, verified: unlocked }
}
