// api-v1 §6: every event type. Webhook endpoints may subscribe only to the submission events.
export const SUBMISSION_EVENT_TYPES = [
  'submission.created',
  'submission.sent',
  'submission.viewed',
  'submission.partially_signed',
  'submission.completed',
  'submission.declined',
  'submission.expired',
  'submission.cancelled',
] as const

export const JOURNAL_ONLY_EVENT_TYPES = [
  'submitter.opened',
  'submitter.signed',
  'submitter.pre_signed',
] as const

export const EVENT_TYPES = [...SUBMISSION_EVENT_TYPES, ...JOURNAL_ONLY_EVENT_TYPES] as const

export type SubmissionEventType = (typeof SUBMISSION_EVENT_TYPES)[number]
export type EventType = (typeof EVENT_TYPES)[number]
