// What the console reads from the API: the server's own schemas, as types. `import type` is erased
// by esbuild, so none of the server (nor TypeBox) reaches the browser bundle; a field renamed on the
// server is a compile error here instead of an empty cell on a page.
import type { Static } from 'typebox'
import type { SubmissionEventType } from '../../events/event-types.ts'
import type { Event } from '../../events/list-events.ts'
import type { Environment as EnvironmentSchema } from '../../http/common-schemas.ts'
import type { Erasure as ErasureSchema } from '../../privacy/erasure-schemas.ts'
import type { LegalHold as LegalHoldSchema } from '../../privacy/legal-hold-schemas.ts'
import type { RetentionPolicy as RetentionPolicySchema } from '../../privacy/retention-policy-schemas.ts'
import type { EndedStatus } from '../../privacy/retention-policy-store.ts'
import type { RequestLog as RequestLogSchema } from '../../request-logs/list-request-logs.ts'
import type { SubmissionDocuments as SubmissionDocumentsSchema } from '../../submissions/get-submission-documents.ts'
import type { Submission, SubmitterSummary } from '../../submissions/submission-schemas.ts'
import type { Template } from '../../templates/template-schemas.ts'
import type { Usage as UsageSchema } from '../../usage/get-usage.ts'
import type { Verification as VerificationSchema } from '../../verification/verify-pdf.ts'
import type { WebhookDelivery } from '../../webhooks/delivery-schemas.ts'
import type { WebhookTestResult } from '../../webhooks/test-webhook-endpoint.ts'
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '../../webhooks/webhook-schemas.ts'
import type { ConsoleSession } from '../access/session-schemas.ts'
import type { ConsoleApiKey, CreatedConsoleApiKey } from '../keys/key-schemas.ts'
import type { Member } from '../members/member-schemas.ts'
import type { SigningRequestResent as SigningRequestResentSchema } from '../resend/resend-schemas.ts'

export type Environment = Static<typeof EnvironmentSchema>
export type Session = ConsoleSession
export type Role = Member['role']
export type { Member, Submission, Template, WebhookDelivery, WebhookEndpoint, WebhookTestResult }
export type Submitter = SubmitterSummary
/** The server's `data` is an open object (additionalProperties), which Static types as `{}`. */
export type JournalEvent = Omit<Event, 'data'> & { data: Record<string, unknown> }
export type SubmissionDocuments = Static<typeof SubmissionDocumentsSchema>
export type RequestLog = Static<typeof RequestLogSchema>
export type Usage = Static<typeof UsageSchema>
export type RetentionPolicy = Static<typeof RetentionPolicySchema>
export type { EndedStatus }
export type SigningRequestResent = Static<typeof SigningRequestResentSchema>
export type ApiKey = ConsoleApiKey
export type CreatedApiKey = Static<typeof CreatedConsoleApiKey>
export type { CreatedWebhookEndpoint }

// Values the pages iterate over are written here, not imported: importing the server's tables
// would put server modules in the bundle. `satisfies` and SameValues keep them the server's.
export const SUBMISSION_STATUSES = [
  'created',
  'sent',
  'viewed',
  'partially_signed',
  'completed',
  'declined',
  'expired',
  'cancelled',
] as const satisfies readonly Submission['status'][]

export const WEBHOOK_EVENTS = [
  ...SUBMISSION_STATUSES.map((s) => `submission.${s}` as const),
  'submission.purged' as const,
] satisfies SubmissionEventType[]

/** A compile error when a list above misses one of the server's values. */
type SameValues<Local, Server> = [Server] extends [Local] ? true : false
export type ListsCoverServer = [
  SameValues<(typeof SUBMISSION_STATUSES)[number], Submission['status']>,
  SameValues<(typeof WEBHOOK_EVENTS)[number], SubmissionEventType>,
] extends [true, true]
  ? true
  : never
export const listsCoverServer: ListsCoverServer = true

// Verification (#36): POST /v1/verify's answer.
export type Verification = Static<typeof VerificationSchema>

// Personal data (#36): a legal hold and an erasure's report, as GET /v1/legal_holds and
// GET /v1/privacy/erasures/{id} answer them.
export type LegalHold = Static<typeof LegalHoldSchema>
export type Erasure = Static<typeof ErasureSchema>
