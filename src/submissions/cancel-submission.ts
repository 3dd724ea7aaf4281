// DELETE /v1/submissions/{id} — docs/api.md#statuses-and-moves: cancels an active submission.
import { Type } from 'typebox'
import { ApiError, orNotFound } from '../errors.ts'
import { Id, IdParams, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { applySubmissionMove } from '../lifecycle/apply-submission-move.ts'
import { findSubmission } from './submission-store.ts'

export const CancelledSubmission = Type.Object(
  {
    id: Id('sub'),
    object: Type.Literal('submission'),
    status: Type.Literal('cancelled'),
    cancelled: Type.Literal(true),
    cancelled_at: Timestamp,
  },
  { title: 'CancelledSubmission' },
)

export const cancelSubmission = defineRoute({
  operationId: 'cancelSubmission',
  method: 'DELETE',
  url: '/v1/submissions/:id',
  summary: 'Cancel a submission',
  description: 'Signing links stop working; event `submission.cancelled`.',
  tag: 'Submissions',
  schema: { params: IdParams('sub'), response: { 200: CancelledSubmission } },
  errors: ['resource_not_found', 'submission_already_finalized'],
  handler: ({ params, scope }, deps) =>
    deps.db.transaction().execute(async (tx) => {
      const submission = orNotFound(await findSubmission(tx, scope, params.id), `submission ${params.id}`)
      const refusal = () =>
        new ApiError(
          'submission_already_finalized',
          submission.all_signed_at
            ? `Every signer of submission ${params.id} has signed; its final PDF is being made, so it cannot be cancelled.`
            : `Submission ${params.id} is already ${submission.status}; it cannot be cancelled.`,
        )
      const cancelled = await applySubmissionMove(tx, deps, submission, 'cancel', refusal)
      return {
        id: cancelled.id,
        object: 'submission' as const,
        status: 'cancelled' as const,
        cancelled: true as const,
        cancelled_at: cancelled.cancelled_at ?? cancelled.updated_at,
      }
    }),
})
