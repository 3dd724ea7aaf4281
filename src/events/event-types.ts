// docs/api.md#events: every event type. Webhook endpoints may subscribe only to the submission
// events (SUBMISSION_EVENT_TYPES, docs/api.md#events); the journal-only ones (docs/api.md#events)
// are read in GET /v1/events and the audit trail, and a subscription naming one is 422
// `invalid_events`. Added as docs/api.md#versioning extensions: `submitter.updated` (PATCH
// /v1/submitters/{id}: the changed field names, the old and new e-mail) and
// `submitter.email_2fa_verified` (the signer entered the right e-mail code; address and agent).
// `submitter.reminded` (docs/api.md#reminders: a reminder mailed, automatic or manual) is the one
// signer event webhooks may subscribe to (WEBHOOK_EVENT_TYPES): its delivery carries the
// submission as `data.object`, like a submission event, and the reminder beside it.
export const SUBMISSION_EVENT_TYPES = [
  'submission.created',
  'submission.sent',
  'submission.viewed',
  'submission.partially_signed',
  'submission.completed',
  'submission.declined',
  'submission.expired',
  'submission.cancelled',
  'submission.purged',
] as const

export const JOURNAL_ONLY_EVENT_TYPES = [
  'submitter.opened',
  'submitter.signed',
  'submitter.pre_signed',
  'submitter.updated',
  'submitter.email_2fa_verified',
] as const

export const SUBSCRIBABLE_SUBMITTER_EVENT_TYPES = ['submitter.reminded'] as const

/** docs/api.md#bulk-send: a bulk send's last row is done; `data.object` is the `bulk_send`. */
export const BULK_SEND_EVENT_TYPES = ['bulk_send.completed'] as const

/**
 * docs/privacy.md: the account's own acts on personal data, journaled without a submission
 * (`data.object` is the policy, the hold or the erasure); never delivered to webhooks.
 */
export const PRIVACY_EVENT_TYPES = [
  'retention_policy.updated',
  'legal_hold.created',
  'legal_hold.released',
  'erasure.completed',
] as const

/** What a webhook endpoint may subscribe to (docs/api.md#events). */
export const WEBHOOK_EVENT_TYPES = [
  ...SUBMISSION_EVENT_TYPES,
  ...SUBSCRIBABLE_SUBMITTER_EVENT_TYPES,
  ...BULK_SEND_EVENT_TYPES,
] as const

/** docs/api.md#testing-an-endpoint: sent by POST …/test alone; never journaled, never subscribed to. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test'

/**
 * Every type a webhook endpoint can receive (the OpenAPI `webhooks` section,
 * docs/webhooks.md#in-the-openapi-description): the subscribable ones and the test.
 */
export const DELIVERED_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] as const

export const EVENT_TYPES = [
  ...SUBMISSION_EVENT_TYPES,
  ...JOURNAL_ONLY_EVENT_TYPES,
  ...SUBSCRIBABLE_SUBMITTER_EVENT_TYPES,
  ...BULK_SEND_EVENT_TYPES,
  ...PRIVACY_EVENT_TYPES,
] as const

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)
}

export type SubmissionEventType = (typeof SUBMISSION_EVENT_TYPES)[number]
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number]
export type EventType = (typeof EVENT_TYPES)[number]
