// DELETE /v1/webhook_endpoints/{id} — docs/api.md#endpoints: deactivates the endpoint (200). It
// receives nothing more: its pending deliveries are dropped in the same transaction and say so
// (`dropped`, "endpoint deleted"); an attempt already in flight is recorded but not retried.
// Deleting it again changes nothing and answers the same way.
import { type Static, Type } from 'typebox'
import { orNotFound } from '../errors.ts'
import { IdParams, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { dropPendingDeliveries } from './delivery-store.ts'
import { deactivateEndpoint, findEndpoint } from './endpoint-store.ts'

export const DeletedWebhookEndpoint = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('webhook_endpoint'),
    active: Type.Literal(false),
    deleted_at: Timestamp,
    dropped_deliveries: Type.Integer({
      minimum: 0,
      description: 'Pending deliveries dropped by this call (0 when it was already deleted)',
    }),
  },
  { title: 'DeletedWebhookEndpoint' },
)
export type DeletedWebhookEndpoint = Static<typeof DeletedWebhookEndpoint>

export const deleteWebhookEndpoint = defineRoute({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  url: '/v1/webhook_endpoints/:id',
  summary: 'Deactivate a webhook endpoint',
  tag: 'Webhooks',
  // Console: webhook endpoints are an admin's (console contract); editors read them only.
  consoleRole: 'admin',
  schema: { params: IdParams('whk'), response: { 200: DeletedWebhookEndpoint } },
  errors: ['resource_not_found'],
  handler: ({ params, scope }, { db, clock }) =>
    db.transaction().execute(async (tx) => {
      const found = orNotFound(await findEndpoint(tx, scope, params.id), `webhook endpoint ${params.id}`)
      const at = toIso(clock.now())
      const deleted =
        found.deleted_at === null ? await deactivateEndpoint(tx, scope, found.id, at) : undefined
      const dropped = deleted ? await dropPendingDeliveries(tx, found.id, 'endpoint deleted', at) : 0
      return {
        id: found.id,
        object: 'webhook_endpoint' as const,
        active: false as const,
        deleted_at: deleted?.deleted_at ?? found.deleted_at ?? at,
        dropped_deliveries: dropped,
      }
    }),
})
