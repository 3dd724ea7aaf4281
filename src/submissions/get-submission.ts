// GET /v1/submissions/{id} — the submission with its submitters (api-v1 §4.4).
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { Submission, toApiSubmission } from './submission-schemas.ts'
import { findSubmissionWithSubmitters } from './submission-store.ts'

export const getSubmission = defineRoute({
  operationId: 'getSubmission',
  method: 'GET',
  url: '/v1/submissions/:id',
  summary: 'Get a submission',
  tag: 'Submissions',
  schema: { params: IdParams('sub'), response: { 200: Submission } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db, config }) => {
    const found = orNotFound(
      await findSubmissionWithSubmitters(db, scope, params.id),
      `submission ${params.id}`,
    )
    return toApiSubmission(found.submission, found.submitters, config)
  },
})
