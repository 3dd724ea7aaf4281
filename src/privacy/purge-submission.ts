// POST /v1/submissions/{id}/purge — docs/privacy.md#purge: deletes an ended submission's documents
// and personal data now. Idempotent by nature (a purged submission answers as it is), so no
// Idempotency-Key. 409 `submission_not_finalized` while it is active or its final PDF is being
// made, 409 `legal_hold_active` while a hold keeps it.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { readSubmission, SubmissionWithFields } from '../submissions/get-submission.ts'
import { purgeSubmission as purge } from './purge.ts'

export const purgeSubmission = defineRoute({
  operationId: 'purgeSubmission',
  method: 'POST',
  url: '/v1/submissions/:id/purge',
  summary: 'Purge a submission now',
  description:
    'Deletes the documents, page images, signature images, field values, names, e-mail addresses, IP addresses, user agents and metadata of an ended submission, in the database and the file store (docs/privacy.md#purge). It keeps its id, statuses, times, template id, event types and the SHA-256 of its original and final documents, so `POST /v1/verify` still recognises its final PDF. Answers the submission as `GET` does, `purged_at` set and the personal values null; its document routes answer 410 `submission_purged` from now on. Event `submission.purged`. A purged submission answers the same again (no Idempotency-Key needed). Only an ended submission: else 409 `submission_not_finalized`; a legal hold: 409 `legal_hold_active`.',
  tag: 'Privacy',
  consoleRole: 'admin',
  schema: { params: IdParams('sub'), response: { 200: SubmissionWithFields } },
  errors: ['resource_not_found', 'submission_not_finalized', 'legal_hold_active'],
  handler: async ({ params, scope }, deps) => {
    await purge(deps, scope, params.id, 'request')
    return orNotFound(await readSubmission(deps, scope, params.id), `submission ${params.id}`)
  },
})
