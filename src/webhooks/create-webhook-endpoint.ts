// POST /v1/webhook_endpoints — docs/api.md#endpoints: exactly `url` and `events`. The events must
// be a non-empty list of distinct subscribable event types — the submission events and
// `submitter.reminded` (docs/api.md#endpoints; 422 invalid_events
// otherwise); the URL must pass the SSRF guard (422 webhook_url_rejected with the reason); at most
// 25 active endpoints per account and environment (422 webhook_endpoint_limit_reached). The secret
// is in this answer only: the row keeps it sealed.
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { WEBHOOK_EVENT_TYPES } from '../events/event-types.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { LIMITS } from '../limits.ts'
import { countActiveEndpoints, insertEndpoint, lockAccount } from './endpoint-store.ts'
import { CreatedWebhookEndpoint, toApiWebhookEndpoint } from './webhook-schemas.ts'
import { newWebhookSecret, sealSecret } from './webhook-secret.ts'
import { checkWebhookUrl } from './webhook-url.ts'

const CreateWebhookEndpointRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: LIMITS.urlLength,
      description:
        'Where events are POSTed: an absolute `https:` URL reaching a public address (`http:` and private addresses only with ALLOW_PRIVATE_NETWORK_URLS)',
    }),
    events: Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 50,
      description: `Event types to receive, at least one, each once: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    }),
  },
  { additionalProperties: false, title: 'CreateWebhookEndpointRequest' },
)

const SUBSCRIBABLE: readonly string[] = WEBHOOK_EVENT_TYPES

/** docs/api.md#events: only the submission events and `submitter.reminded`; a journal-only or unknown type is refused by name. */
export function eventsRefusal(events: readonly string[]): string | undefined {
  if (events.length === 0) return 'events: at least one event type is required.'
  const unknown = events.find((type) => !SUBSCRIBABLE.includes(type))
  if (unknown !== undefined) {
    const why = unknown.startsWith('submitter.') ? 'is journal-only' : 'is not an event type'
    return `events: "${unknown}" ${why}; subscribable: ${WEBHOOK_EVENT_TYPES.join(', ')}.`
  }
  const repeated = events.find((type, i) => events.indexOf(type) !== i)
  if (repeated !== undefined) return `events: "${repeated}" is listed twice.`
  return undefined
}

export const createWebhookEndpoint = defineRoute({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  url: '/v1/webhook_endpoints',
  summary: 'Create a webhook endpoint',
  description:
    'Subscribes a URL to submission events (and `submitter.reminded`). The answer carries the signing `secret` (`whsec_` + 32 base62 characters) once: it is never returned again. No Idempotency-Key.',
  tag: 'Webhooks',
  // Console: webhook endpoints are an admin's (console contract); editors read them only.
  consoleRole: 'admin',
  schema: { body: CreateWebhookEndpointRequest, response: { 201: CreatedWebhookEndpoint } },
  errors: ['invalid_events', 'webhook_url_rejected', 'webhook_endpoint_limit_reached'],
  handler: async ({ body, scope }, deps) => {
    const refusal = eventsRefusal(body.events)
    if (refusal) throw new ApiError('invalid_events', refusal)
    await checkWebhookUrl(body.url, deps.config, deps.resolve)
    const secret = newWebhookSecret()
    const row = await deps.db.transaction().execute(async (tx) => {
      await lockAccount(tx, scope)
      if ((await countActiveEndpoints(tx, scope)) >= LIMITS.webhookEndpoints) {
        throw new ApiError(
          'webhook_endpoint_limit_reached',
          `At most ${LIMITS.webhookEndpoints} active webhook endpoints per account and environment; delete one first.`,
        )
      }
      return insertEndpoint(tx, scope, {
        id: deps.ids.next('whk'),
        url: body.url,
        events: JSON.stringify(body.events),
        secret_sealed: sealSecret(deps.keys.webhookSecret, secret),
        created_at: toIso(deps.clock.now()),
      })
    })
    return { ...toApiWebhookEndpoint(row, deps.clock.now()), secret }
  },
})
