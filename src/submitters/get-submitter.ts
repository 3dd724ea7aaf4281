// GET /v1/submitters/{id} — a submitter with the values filled so far (api-v1 §4.4).
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { SubmitterWithValues, toApiSubmitter } from '../submissions/submission-schemas.ts'
import { findSubmitter } from '../submissions/submission-store.ts'

export const getSubmitter = defineRoute({
  operationId: 'getSubmitter',
  method: 'GET',
  url: '/v1/submitters/:id',
  summary: 'Get a submitter with its values',
  tag: 'Submitters',
  schema: { params: IdParams('sbm'), response: { 200: SubmitterWithValues } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db, config }) => {
    const row = orNotFound(await findSubmitter(db, scope, params.id), `submitter ${params.id}`)
    return { ...toApiSubmitter(row, config.signingUrl), values: JSON.parse(row.values) }
  },
})
