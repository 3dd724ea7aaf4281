// POST /v1/webhook_endpoints/{id}/test — docs/api.md#testing-an-endpoint: sends a signed
// `webhook.test` event now (not journaled, not retried on the schedule) and answers 200 with the
// receiver's raw answer: `delivered`, `response` { status or null, headers, body (first 64 KB as
// text) }, `duration_ms`, `error`, and the `delivery_id` under which the test is recorded among the
// endpoint's deliveries (`test: true`, redeliverable like any other). A 2xx clears the failing state
// and re-enables a disabled endpoint; a failure changes nothing in its health. A deleted endpoint is
// 409 webhook_endpoint_deleted.
import { type Static, Type } from 'typebox'
import { ApiError, orNotFound } from '../errors.ts'
import { Id, IdParams, Nullable } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { sendAndRecord } from './deliver-once.ts'
import { insertTestDelivery } from './delivery-store.ts'
import { findEndpoint } from './endpoint-store.ts'
import type { WebhookEventOf } from './webhook-events.ts'

export const WebhookTestResult = Type.Object(
  {
    delivered: Type.Boolean({ description: 'The receiver answered 2xx' }),
    event_id: Id('evt', 'The id of the `webhook.test` event sent'),
    delivery_id: Id(
      'dlv',
      'The delivery recording this test among the endpoint’s deliveries (`test: true`); redeliver it with …/deliveries/{delivery_id}/retry',
    ),
    response: Type.Object({
      status: Nullable(Type.Integer({ description: 'HTTP status, or null when no answer came' })),
      headers: Type.Record(Type.String(), Type.String()),
      body: Type.String({ description: 'The first 64 KB of the answer, as text' }),
    }),
    duration_ms: Type.Integer({ minimum: 0 }),
    error: Nullable(
      Type.String({
        description:
          'Why no answer came (refused, timed out, TLS failure, refused by the SSRF guard); null whenever the receiver answered, whatever its status',
      }),
    ),
  },
  { title: 'WebhookTestResult' },
)
export type WebhookTestResult = Static<typeof WebhookTestResult>

export const testWebhookEndpoint = defineRoute({
  operationId: 'testWebhookEndpoint',
  method: 'POST',
  url: '/v1/webhook_endpoints/:id/test',
  summary: 'Send a test event to a webhook endpoint',
  description:
    'Sends a signed `webhook.test` event at once and answers the receiving server’s raw answer. The test is recorded among the endpoint’s deliveries (`test: true`, `delivery_id`), where it can be redelivered. A 2xx re-enables a failing or disabled endpoint; a failure changes nothing in its health.',
  tag: 'Webhooks',
  // Console: webhook endpoints are an admin's (console contract); editors read them only.
  consoleRole: 'admin',
  schema: { params: IdParams('whk'), response: { 200: WebhookTestResult } },
  errors: ['resource_not_found', 'webhook_endpoint_deleted'],
  handler: async ({ params, scope }, deps) => {
    const endpoint = orNotFound(
      await findEndpoint(deps.db, scope, params.id),
      `webhook endpoint ${params.id}`,
    )
    if (endpoint.deleted_at !== null) {
      throw new ApiError('webhook_endpoint_deleted', `Webhook endpoint ${endpoint.id} was deleted.`)
    }
    const eventId = deps.ids.nextSortable('evt')
    const now = deps.clock.now()
    const event: WebhookEventOf<'webhook.test'> = {
      id: eventId,
      type: 'webhook.test',
      created_at: toIso(now),
      data: { object: { id: endpoint.id, object: 'webhook_endpoint', url: endpoint.url } },
    }
    const body = JSON.stringify(event)
    // Recorded first, claimed for its attempt, so the attempt lands on it as any delivery's does.
    const delivery = await insertTestDelivery(
      deps.db,
      {
        id: deps.ids.nextSortable('dlv'),
        account_id: scope.accountId,
        environment: scope.environment,
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_type: 'webhook.test',
        event_created_at: toIso(now),
        body,
      },
      toIso(now),
      toIso(new Date(now.getTime() + deps.webhookTimeoutMs + 60_000)),
    )
    const { result } = await sendAndRecord(deps, delivery, endpoint, { scheduleRetry: false })
    return {
      delivered: result.ok,
      event_id: eventId,
      delivery_id: delivery.id,
      response: { status: result.status, headers: result.headers, body: result.body },
      duration_ms: result.durationMs,
      // docs/api.md#testing-an-endpoint: a receiver that answered (a 418 included) is no error,
      // only not delivered.
      error: result.status === null ? result.error : null,
    }
  },
})
