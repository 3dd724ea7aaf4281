// What the console reads from the API (the fields it shows; the server's schemas are the truth:
// src/templates/template-schemas.ts, src/submissions/submission-schemas.ts, src/webhooks/…).

export type Environment = 'test' | 'live'
export type Role = 'admin' | 'editor'

export interface Session {
  object: 'console_session'
  member: { id: string; email: string; role: Role }
  account: { id: string; name: string }
  environment: Environment
  csrf_token: string
  expires_at: string
}

export interface Template {
  id: string
  name: string
  slug: string | null
  status: 'active' | 'archived'
  created_via: 'api' | 'ui'
  documents: { name: string; page_count: number }[]
  created_at: string
}

export interface Submitter {
  id: string
  submission_id: string
  role: string
  email: string
  name: string | null
  status: 'pending' | 'opened' | 'signed' | 'declined' | 'pre_signed'
  signing_url: string
  signed_at: string | null
}

export interface Submission {
  id: string
  status: string
  template_id: string
  submitters: Submitter[]
  created_at: string
  completed_at?: string
  cancelled_at: string | null
  expires_at: string | null
}

export interface SubmissionDocuments {
  original_pdf_url: string
  signed_pdf_url: string | null
  documents: { name: string; original_pdf_url: string }[]
}

export interface JournalEvent {
  id: string
  type: string
  created_at: string
  submitter_id: string | null
  data: Record<string, unknown>
}

export interface ApiKey {
  id: string
  environment: Environment
  prefix: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
  secret?: string
}

export interface WebhookHealth {
  failing: boolean
  disabled: boolean
  consecutive_failures: number
  last_success_at: string | null
  last_failure_at: string | null
  last_failure_reason: string | null
}

export interface WebhookEndpoint {
  id: string
  url: string
  events: string[]
  active: boolean
  health: WebhookHealth
  created_at: string
  secret?: string
}

export interface WebhookAttempt {
  number: number
  at: string
  status: number | null
  error: string | null
  duration_ms: number
  succeeded: boolean
  response_body: string | null
}

export interface WebhookDelivery {
  id: string
  event_id: string
  event_type: string
  status: 'pending' | 'delivered' | 'failed' | 'dropped'
  next_attempt_at: string | null
  last_error: string | null
  created_at: string
  request_body: string
  attempts: WebhookAttempt[]
}

export interface WebhookTestResult {
  delivered: boolean
  event_id: string
  response: { status: number | null; headers: Record<string, string>; body: string }
  duration_ms: number
  error: string | null
}

export interface RequestLog {
  id: string
  time: string
  method: string
  path: string
  status: number
  error_code: string | null
  duration_ms: number
  error: unknown
}

export interface Usage {
  environment: Environment
  month: string
  signatures: number
  billable: boolean
  currency: string
  tier: { up_to: number | null; unit_amount: number }
  amount: number
  days: { date: string; signatures: number }[]
}

export interface Member {
  id: string
  email: string
  role: Role
  created_at: string
  last_sign_in_at: string | null
}

export const SUBMISSION_STATUSES = [
  'created',
  'sent',
  'viewed',
  'partially_signed',
  'completed',
  'declined',
  'expired',
  'cancelled',
] as const

export const WEBHOOK_EVENTS = SUBMISSION_STATUSES.map((s) => `submission.${s}`)

// — sending
/** A template as the Send page reads it: its roles in the order the signers are asked. */
export interface SendableTemplate extends Template {
  roles: string[]
}

/** A submission as its page reads it to tell whose signing request can be sent again. */
export interface SubmissionWithOrder extends Submission {
  signing_order: 'preserved' | 'random'
  submitters: (Submitter & { send_email: boolean })[]
}

/** POST /console/api/submitters/:id/resend (docs/console.md). */
export interface SigningRequestResent {
  object: 'signing_request'
  submitter_id: string
  submission_id: string
  email: string
  queued_at: string
}
