// POST /v1/webhook_endpoints/{id}/deliveries/{delivery_id}/retry — one more
// attempt of this delivery now, whatever its state (a failed or dropped one too), with the same
// event and body and a fresh signature; answers the delivery with the new attempt. A pending
// delivery keeps its schedule when this attempt fails; any other that fails again is `failed`.
// The attempt counts for the endpoint's health like any other (a test event's as a test: a 2xx
// re-enables, a failure changes nothing). 409 webhook_endpoint_deleted on a
// deleted endpoint, 409 webhook_delivery_in_flight while an attempt is under way.
import { Type } from 'typebox'
import { ApiError, orNotFound } from '../errors.ts'
import { Id } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { sendAndRecord } from './deliver-once.ts'
import { toApiDelivery, WebhookDelivery } from './delivery-schemas.ts'
import { attemptsOf, claimForRetry, findDelivery } from './delivery-store.ts'
import { findEndpoint } from './endpoint-store.ts'

const RetryParams = Type.Object({ id: Id('whk'), delivery_id: Id('dlv') }, { additionalProperties: false })

export const retryWebhookDelivery = defineRoute({
  operationId: 'retryWebhookDelivery',
  method: 'POST',
  url: '/v1/webhook_endpoints/:id/deliveries/:delivery_id/retry',
  summary: 'Redeliver one delivery now',
  tag: 'Webhooks',
  // Console: webhook endpoints are an admin's (console contract); editors read them only.
  consoleRole: 'admin',
  schema: { params: RetryParams, response: { 200: WebhookDelivery } },
  errors: ['resource_not_found', 'webhook_endpoint_deleted', 'webhook_delivery_in_flight'],
  handler: async ({ params, scope }, deps) => {
    const endpoint = orNotFound(
      await findEndpoint(deps.db, scope, params.id),
      `webhook endpoint ${params.id}`,
    )
    const delivery = orNotFound(
      await findDelivery(deps.db, scope, endpoint.id, params.delivery_id),
      `delivery ${params.delivery_id}`,
    )
    if (endpoint.deleted_at !== null) {
      throw new ApiError('webhook_endpoint_deleted', `Webhook endpoint ${endpoint.id} was deleted.`)
    }
    const claimed = await claimForRetry(deps.db, delivery, deps.clock.now(), deps.webhookTimeoutMs + 60_000)
    if (!claimed) {
      throw new ApiError(
        'webhook_delivery_in_flight',
        `An attempt of ${delivery.id} is under way; retry later.`,
      )
    }
    // A test event's delivery is never put back on the schedule (docs/api.md#testing-an-endpoint).
    const scheduleRetry = delivery.state === 'pending' && delivery.test === 0
    await sendAndRecord(deps, claimed, endpoint, { scheduleRetry })
    const row = orNotFound(
      await findDelivery(deps.db, scope, endpoint.id, delivery.id),
      `delivery ${delivery.id}`,
    )
    return toApiDelivery(row, await attemptsOf(deps.db, [row.id]))
  },
})
