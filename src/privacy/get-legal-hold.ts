// GET /v1/legal_holds/{id} — docs/privacy.md#legal-holds.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { LegalHold, toApiLegalHold } from './legal-hold-schemas.ts'
import { findLegalHold, heldSubmissions } from './legal-hold-store.ts'

export const getLegalHold = defineRoute({
  operationId: 'getLegalHold',
  method: 'GET',
  url: '/v1/legal_holds/:id',
  summary: 'Get a legal hold',
  tag: 'Privacy',
  schema: { params: IdParams('hold'), response: { 200: LegalHold } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db }) => {
    const hold = orNotFound(await findLegalHold(db, scope, params.id), `legal hold ${params.id}`)
    return toApiLegalHold(hold, (await heldSubmissions(db, [hold.id])).get(hold.id) ?? [])
  },
})
