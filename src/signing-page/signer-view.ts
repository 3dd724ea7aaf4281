// What the signer's read-only routes (the form, the document as it stands) load first: the
// submission, its documents and fields, every submitter, and the state the signer is in.
import type { SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { findSubmissionOfSubmitter, submittersOf } from '../submissions/submission-store.ts'
import { findTemplateLayout, type TemplateRecord } from '../templates/template-store.ts'
import { type SignerState, signerState } from './signer-state.ts'

export interface SignerView {
  submission: SubmissionsTable
  template: Pick<TemplateRecord, 'documents' | 'fields'>
  /** Every submitter of the submission, in signing order. */
  everyone: SubmittersTable[]
  state: SignerState
}

/** The view of `submitter`, who presented a verified session (or a grant standing for one) when `verified`. */
export async function signerView(
  deps: Deps,
  submitter: SubmittersTable,
  verified: boolean,
): Promise<SignerView> {
  const scope = { accountId: submitter.account_id, environment: submitter.environment }
  const submission = await findSubmissionOfSubmitter(deps.db, submitter)
  const [template, everyone] = submission
    ? await Promise.all([
        findTemplateLayout(deps.db, scope, submission.template_id),
        submittersOf(deps.db, scope, [submission.id]) as Promise<SubmittersTable[]>,
      ])
    : [undefined, []]
  if (!submission || !template)
    throw new ApiError('internal_inconsistency', 'The signing link points to a missing submission.')
  const state = signerState(submission, submitter, everyone, deps.clock.now(), verified)
  return { submission, template, everyone, state }
}
