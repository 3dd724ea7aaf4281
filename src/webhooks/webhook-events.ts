// The OpenAPI `webhooks` section (docs/webhooks.md#in-the-openapi-description): every type a webhook
// endpoint can receive (DELIVERED_EVENT_TYPES), each with the schema of its body — the envelope of
// docs/webhooks.md#the-body around that type's `data`, whose schema is the one the code recording
// the event is typed with (lifecycle/submission-event-data.ts, bulk-sends/bulk-send-schemas.ts, and
// the test event here). app.ts hands WEBHOOK_SECTION to the OpenAPI route.
import { type Static, type TSchema, Type } from 'typebox'
import { BulkSendCompletedData } from '../bulk-sends/bulk-send-schemas.ts'
import { DEFAULT_RETRY_SCHEDULE } from '../config.ts'
import type { DeliveredEventType } from '../events/event-types.ts'
import { Id, Timestamp } from '../http/common-schemas.ts'
import type { WebhookSection } from '../http/openapi-webhooks.ts'
import {
  SubmissionEventData,
  SubmissionPurgedData,
  SubmitterRemindedData,
} from '../lifecycle/submission-event-data.ts'
import { SIGNATURE_HEADER } from './webhook-signature.ts'

/** `submission.partially_signed` → `SubmissionPartiallySignedEvent`: the body's component name. */
export function eventTitle(type: string): string {
  const words = type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1))
  return `${words.join('')}Event`
}

/** The body of one type: the envelope of docs/webhooks.md#the-body, its `type` that type alone. */
function webhookEvent<const T extends DeliveredEventType, D extends TSchema>(
  type: T,
  data: D,
  description: string,
) {
  return Type.Object(
    {
      id: Id('evt', 'The event id (`evt_`); a retry carries the same id and body: de-duplicate on it'),
      // `const` for OpenAPI 3.1 generators, `enum` for those that read only that: the discriminator.
      type: Type.Unsafe<T>({ type: 'string', const: type, enum: [type] }),
      created_at: { ...Timestamp, description: "The event's time (UTC, milliseconds)" },
      data,
    },
    { title: eventTitle(type), description },
  )
}

/** `data.object` of `webhook.test`: the endpoint tested. */
export const WebhookTestData = Type.Object(
  {
    object: Type.Object({
      id: Id('whk'),
      object: Type.Literal('webhook_endpoint'),
      url: Type.String(),
    }),
  },
  { title: 'WebhookTestData' },
)

const moved = (what: string) => `The submission ${what}; \`data.object\` is the submission as it then was.`

/** Every type an endpoint can receive → its body. */
export const WEBHOOK_EVENTS = {
  'submission.created': webhookEvent('submission.created', SubmissionEventData, moved('was created')),
  'submission.sent': webhookEvent('submission.sent', SubmissionEventData, moved('was sent to its signers')),
  'submission.viewed': webhookEvent(
    'submission.viewed',
    SubmissionEventData,
    moved('was opened by a signer for the first time'),
  ),
  'submission.partially_signed': webhookEvent(
    'submission.partially_signed',
    SubmissionEventData,
    moved('was signed by a signer, others still to sign'),
  ),
  'submission.completed': webhookEvent(
    'submission.completed',
    SubmissionEventData,
    moved('was signed by everyone and sealed; its documents are ready'),
  ),
  'submission.declined': webhookEvent(
    'submission.declined',
    SubmissionEventData,
    moved('was declined by a signer'),
  ),
  'submission.expired': webhookEvent('submission.expired', SubmissionEventData, moved('expired unsigned')),
  'submission.cancelled': webhookEvent('submission.cancelled', SubmissionEventData, moved('was cancelled')),
  'submission.purged': webhookEvent(
    'submission.purged',
    SubmissionPurgedData,
    'The submission was purged (docs/api.md#purge): its documents and personal data are deleted, its personal values null in `data.object`. Delete the copies your application kept.',
  ),
  'submitter.reminded': webhookEvent(
    'submitter.reminded',
    SubmitterRemindedData,
    'A reminder to sign was mailed to a signer, automatic or manual (docs/api.md#reminders); `data.object` is the submission.',
  ),
  'bulk_send.completed': webhookEvent(
    'bulk_send.completed',
    BulkSendCompletedData,
    'A bulk send’s last row is done (docs/api.md#bulk-send); `data.object` is the bulk send.',
  ),
  'webhook.test': webhookEvent(
    'webhook.test',
    WebhookTestData,
    'Sent by POST /v1/webhook_endpoints/{id}/test alone (docs/api.md#testing-an-endpoint): never journaled, never retried, no subscription needed.',
  ),
} satisfies Record<DeliveredEventType, TSchema>

type Events = typeof WEBHOOK_EVENTS
/** A body of the given type, as delivered. */
export type WebhookEventOf<T extends DeliveredEventType> = Static<Events[T]>
/** Any body an endpoint can receive: a union discriminated by `type`. */
export type WebhookEvent = { [T in DeliveredEventType]: WebhookEventOf<T> }[DeliveredEventType]

/** `0,30,300` → `0 s, 30 s, 5 min`. */
function spoken(schedule: string): string {
  return schedule
    .split(',')
    .map(Number)
    .map((s) =>
      s % 3600 === 0 && s > 0 ? `${s / 3600} h` : s % 60 === 0 && s > 0 ? `${s / 60} min` : `${s} s`,
    )
    .join(', ')
}

export const WEBHOOK_SECTION: WebhookSection = {
  signature: {
    header: SIGNATURE_HEADER,
    pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$',
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256>`: each `v1` (one per secret in force, two during a rotation) is keyed with the endpoint’s full `whsec_…` secret over `t + "." + the raw body`. Verify on the raw bytes before parsing, reject a `t` more than 300 s from your clock, compare in constant time (docs/webhooks.md#the-signature).',
  },
  description: `A POST with \`Content-Type: application/json\` and \`User-Agent: Paraph-Webhooks/1.0\`, the body made once when the event is published (docs/webhooks.md#the-body). Answer 2xx within 5 s and work asynchronously: anything else, a 3xx included, or no answer within 10 s is a failure, retried with the same event id and body at the times of \`WEBHOOK_RETRY_SCHEDULE\` counted from the event (by default ${spoken(DEFAULT_RETRY_SCHEDULE)}), then \`failed\` (docs/api.md#deliveries).`,
  events: Object.entries(WEBHOOK_EVENTS).map(([type, body]) => ({ type, body })),
}
