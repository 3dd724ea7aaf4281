// POST /v1/webhook_endpoints/{id}/test — docs/api.md#testing-an-endpoint: sends a signed
// `webhook.test` event now (not journaled, not retried) and answers 200 with the receiver's raw
// answer: `delivered`, `response` { status or null, headers, body (first 64 KB as text) },
// `duration_ms`, `error`. A 2xx clears the failing state and re-enables a disabled endpoint
// (docs/api.md#testing-an-endpoint); a failure changes nothing in its health. A deleted endpoint is
// 409 webhook_endpoint_deleted.
import { type Static, Type } from 'typebox'
import { ApiError, orNotFound } from '../errors.ts'
import { Id, IdParams, Nullable } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { postSigned } from './deliver-once.ts'
import { afterTestSuccess } from './endpoint-health.ts'
import { findEndpoint, lockEndpoint, updateHealth } from './endpoint-store.ts'

export const WebhookTestResult = Type.Object(
  {
    delivered: Type.Boolean({ description: 'The receiver answered 2xx' }),
    event_id: Id('evt', 'The id of the `webhook.test` event sent'),
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
    'Sends a signed `webhook.test` event at once and answers the receiving server’s raw answer. A 2xx re-enables a failing or disabled endpoint.',
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
    const body = JSON.stringify({
      id: eventId,
      type: 'webhook.test',
      created_at: toIso(deps.clock.now()),
      data: { object: { id: endpoint.id, object: 'webhook_endpoint', url: endpoint.url } },
    })
    const result = await postSigned(deps, endpoint, body)
    if (result.ok) {
      await deps.db.transaction().execute(async (tx) => {
        if (await lockEndpoint(tx, endpoint.id)) {
          const at = deps.clock.now()
          await updateHealth(tx, endpoint.id, afterTestSuccess(result.status as number, at).set, toIso(at))
        }
      })
    }
    return {
      delivered: result.ok,
      event_id: eventId,
      response: { status: result.status, headers: result.headers, body: result.body },
      duration_ms: result.durationMs,
      // docs/api.md#testing-an-endpoint: a receiver that answered (a 418 included) is no error,
      // only not delivered.
      error: result.status === null ? result.error : null,
    }
  },
})
