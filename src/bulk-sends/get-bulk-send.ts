// GET /v1/bulk_sends/{id} — docs/api.md#bulk-send: the job with its counts.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { BulkSend, toApiBulkSend } from './bulk-send-schemas.ts'
import { findBulkSend } from './bulk-send-store.ts'

export const getBulkSend = defineRoute({
  operationId: 'getBulkSend',
  method: 'GET',
  url: '/v1/bulk_sends/:id',
  summary: 'Retrieve a bulk send',
  tag: 'Bulk sends',
  schema: { params: IdParams('bulk'), response: { 200: BulkSend } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, deps) =>
    toApiBulkSend(orNotFound(await findBulkSend(deps.db, scope, params.id), 'bulk send')),
})
