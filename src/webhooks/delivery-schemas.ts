// A delivery as the API shows it (a backward-compatible addition): the event it
// carries (a test event's too, `test: true`), its state, and every attempt made — when, the HTTP status or the error, how long; and
// (for the console's delivery history) the body POSTed and the start of each answer.
import { type Static, Type } from 'typebox'
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../db/tables.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'dropped'] as const

/** How much of an answer a delivery shows (the store keeps 64 KiB; a page of deliveries stays small). */
export const RESPONSE_EXCERPT_CHARS = 2000

export const WebhookAttempt = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    at: Timestamp,
    status: Nullable(Type.Integer({ description: 'The receiver’s HTTP status; null when no answer came' })),
    error: Nullable(Type.String({ description: 'Why it failed: the non-2xx status or the network error' })),
    duration_ms: Type.Integer({ minimum: 0 }),
    succeeded: Type.Boolean(),
    response_body: Nullable(
      Type.String({
        description: `The receiver’s answer body, its first ${RESPONSE_EXCERPT_CHARS} characters; null when no answer came`,
      }),
    ),
  },
  { title: 'WebhookAttempt' },
)

export const WebhookDelivery = Type.Object(
  {
    id: Id('dlv'),
    object: Type.Literal('webhook_delivery'),
    endpoint_id: Id('whk'),
    event_id: Id('evt'),
    event_type: Type.String(),
    test: Type.Boolean({
      description:
        'A test event’s delivery (`webhook.test`, sent by POST …/test): never retried on the schedule, and a failure does not count against the endpoint’s health',
    }),
    status: StringEnum(DELIVERY_STATES, {
      description:
        '`pending` (an attempt is due or in flight), `delivered` (a 2xx), `failed` (no attempt left), `dropped` (the endpoint was deleted or disabled; `last_error` says which)',
    }),
    next_attempt_at: {
      ...Nullable({ ...Timestamp }),
      description: 'When the next attempt is due, while pending',
    },
    last_error: Nullable(Type.String()),
    created_at: Timestamp,
    delivered_at: Nullable({ ...Timestamp }),
    request_body: Type.String({
      description: 'The JSON body POSTed at every attempt (the event, frozen when the delivery was made)',
    }),
    attempts: Type.Array(WebhookAttempt),
  },
  { title: 'WebhookDelivery' },
)
export type WebhookDelivery = Static<typeof WebhookDelivery>

export function toApiDelivery(
  row: WebhookDeliveriesTable,
  attempts: WebhookAttemptsTable[],
): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    test: row.test === 1,
    status: row.state,
    next_attempt_at: row.state === 'pending' ? row.next_attempt_at : null,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    request_body: row.body,
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({
        number: a.number,
        at: a.started_at,
        status: a.status,
        error: a.error,
        duration_ms: a.duration_ms,
        succeeded: a.succeeded === 1,
        response_body: a.response_body === null ? null : a.response_body.slice(0, RESPONSE_EXCERPT_CHARS),
      })),
  }
}
