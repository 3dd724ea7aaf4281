// GET /v1/webhook_endpoints/{id} — docs/api.md#endpoints: the endpoint and its health state; never
// its secret.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { findEndpoint } from './endpoint-store.ts'
import { toApiWebhookEndpoint, WebhookEndpoint } from './webhook-schemas.ts'

export const getWebhookEndpoint = defineRoute({
  operationId: 'getWebhookEndpoint',
  method: 'GET',
  url: '/v1/webhook_endpoints/:id',
  summary: 'Get a webhook endpoint and its health',
  tag: 'Webhooks',
  schema: { params: IdParams('whk'), response: { 200: WebhookEndpoint } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db, clock }) =>
    toApiWebhookEndpoint(
      orNotFound(await findEndpoint(db, scope, params.id), `webhook endpoint ${params.id}`),
      clock.now(),
    ),
})
