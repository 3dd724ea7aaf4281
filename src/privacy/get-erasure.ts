// GET /v1/privacy/erasures/{id} — docs/privacy.md#erasure: the erasure and its report.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { Erasure, toApiErasure } from './erasure-schemas.ts'
import { findErasure } from './erasure-store.ts'

export const getErasure = defineRoute({
  operationId: 'getErasure',
  method: 'GET',
  url: '/v1/privacy/erasures/:id',
  summary: 'Get an erasure and its report',
  tag: 'Privacy',
  schema: { params: IdParams('era'), response: { 200: Erasure } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db }) =>
    toApiErasure(orNotFound(await findErasure(db, scope, params.id), `erasure ${params.id}`)),
})
