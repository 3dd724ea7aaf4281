// The webhook endpoint as the API shows it (docs/api.md#endpoints): never its secret, except in the
// creation answer (CreatedWebhookEndpoint). One schema per shape.
import { type Static, Type } from 'typebox'
import type { WebhookEndpointsTable } from '../db/tables.ts'
import { WEBHOOK_EVENT_TYPES } from '../events/event-types.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'

const NullableTime = Nullable({ ...Timestamp })

export const WebhookHealth = Type.Object(
  {
    failing: Type.Boolean({
      description: 'True after 8 consecutive failed attempts (the owner is mailed once), until a success',
    }),
    disabled: Type.Boolean({
      description:
        'True 7 days into a failing run without a success: nothing is delivered until a `POST …/test` gets a 2xx',
    }),
    consecutive_failures: Type.Integer({ minimum: 0, description: 'Failed attempts since the last success' }),
    failing_since: { ...NullableTime, description: 'First failure of the current run of failures' },
    disabled_at: NullableTime,
    last_success_at: NullableTime,
    last_success_status: Nullable(Type.Integer({ description: 'HTTP status of the last success' })),
    last_failure_at: NullableTime,
    last_failure_reason: Nullable(
      Type.String({ description: 'Why the last attempt failed: the HTTP status or the network error' }),
    ),
  },
  { title: 'WebhookHealth' },
)
export type WebhookHealth = Static<typeof WebhookHealth>

const endpointFields = {
  id: Id('whk'),
  object: Type.Literal('webhook_endpoint'),
  url: Type.String({ description: 'Where events are POSTed' }),
  events: Type.Array(StringEnum(WEBHOOK_EVENT_TYPES), { description: 'The subscribed event types' }),
  active: Type.Boolean({ description: 'False once deleted (deactivated): it receives nothing more' }),
  health: WebhookHealth,
  previous_secret_expires_at: {
    ...NullableTime,
    description:
      'After `POST …/rotate_secret`: until then deliveries carry a second `v1=` signed with the previous secret',
  },
  created_at: Timestamp,
  deleted_at: NullableTime,
}

export const WebhookEndpoint = Type.Object(endpointFields, { title: 'WebhookEndpoint' })
export type WebhookEndpoint = Static<typeof WebhookEndpoint>

export const CreatedWebhookEndpoint = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      pattern: '^whsec_[0-9A-Za-z]{32}$',
      description:
        'Signs every delivery (`Paraph-Signature`). Shown in this answer only: store it now, it is never returned again',
    }),
  },
  { title: 'CreatedWebhookEndpoint' },
)
export type CreatedWebhookEndpoint = Static<typeof CreatedWebhookEndpoint>

export function toApiWebhookEndpoint(row: WebhookEndpointsTable, now: Date): WebhookEndpoint {
  const overlap = row.previous_secret_expires_at
  const inOverlap = overlap !== null && Date.parse(overlap) > now.getTime()
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    events: JSON.parse(row.events) as WebhookEndpoint['events'],
    active: row.deleted_at === null,
    health: {
      failing: row.failing === 1,
      disabled: row.disabled_at !== null,
      consecutive_failures: row.consecutive_failures,
      failing_since: row.failing_since,
      disabled_at: row.disabled_at,
      last_success_at: row.last_success_at,
      last_success_status: row.last_success_status,
      last_failure_at: row.last_failure_at,
      last_failure_reason: row.last_failure_reason,
    },
    previous_secret_expires_at: inOverlap ? overlap : null,
    created_at: row.created_at,
    deleted_at: row.deleted_at,
  }
}
