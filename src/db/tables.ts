// Row types of every table. Timestamps are ISO 8601 UTC text (see lib/clock.ts toIso), JSON is text.
import type { Kysely, Transaction } from 'kysely'
import type { BulkSendRowsTable, BulkSendsTable } from './bulk-send-tables.ts'
import type {
  ConsoleSessionsTable,
  ConsoleSignInLinksTable,
  ConsoleSignInRequestsTable,
  MembersTable,
  SigningRequestResendsTable,
  TemplateDraftsTable,
} from './console-tables.ts'
import type {
  ErasuresTable,
  LegalHoldSubmissionsTable,
  LegalHoldsTable,
  RetentionPoliciesTable,
} from './privacy-tables.ts'
import type { Email2faCodesTable, GroupMembersTable, SigningProgressTable } from './signer-tables.ts'

export type * from './bulk-send-tables.ts'
export type * from './console-tables.ts'
export type * from './privacy-tables.ts'
export type * from './signer-tables.ts'

export type Environment = 'test' | 'live'

/** What an API key grants: one account in one environment. Every scoped query filters on both. */
export interface Scope {
  accountId: string
  environment: Environment
}

export interface AccountsTable {
  id: string
  name: string
  owner_email: string | null
  created_at: string
}

export interface ApiKeysTable {
  id: string
  account_id: string
  environment: Environment
  key_hash: string
  /** First characters of the key, for humans telling keys apart (`sk_test_AbC…`). */
  key_hint: string
  /** What the key is for, in its owner's words (≤ 100 characters, migration 0019); null without one. */
  name: string | null
  created_at: string
  revoked_at: string | null
  /** When the key was last used, truncated to the minute (written at most once a minute); null until then. */
  last_used_at: string | null
}

export interface IdempotencyKeysTable {
  account_id: string
  environment: Environment
  route: string
  key: string
  fingerprint: string
  state: 'in_flight' | 'completed'
  /** Who holds an in-flight claim: only that request may complete or release it. */
  claim_token: string
  locked_until: string
  response_status: number | null
  response_body: string | null
  created_at: string
  expires_at: string
}

export interface EventsTable {
  id: string
  account_id: string
  environment: Environment
  type: string
  submission_id: string | null
  submitter_id: string | null
  data: string
  created_at: string
  /** Who acted, for a signer's act (the audit trail): address and user agent. */
  actor_ip: string | null
  actor_user_agent: string | null
}

export interface JobsTable {
  id: string
  kind: string
  payload: string
  state: 'pending' | 'running' | 'done' | 'dead'
  attempt: number
  max_attempts: number
  run_at: string
  locked_until: string | null
  last_error: string | null
  created_at: string
  updated_at: string
  /** The submission the job is about (its payload's `submission_id`): a purge finds its mails by it. */
  submission_id: string | null
}

export type TemplateStatus = 'active' | 'archived'

export interface TemplatesTable {
  id: string
  account_id: string
  environment: Environment
  name: string
  slug: string | null
  external_id: string | null
  metadata: string
  status: TemplateStatus
  created_via: 'api' | 'ui'
  /** 1 for the archived template made behind an inline-PDF submission. */
  internal: number
  /** JSON: StoredDocument[] (templates/template-model.ts). */
  documents: string
  /** JSON: StoredField[]. */
  fields: string
  created_at: string
  updated_at: string
  archived_at: string | null
}

export type SubmissionStatus =
  | 'created'
  | 'sent'
  | 'viewed'
  | 'partially_signed'
  | 'completed'
  | 'declined'
  | 'expired'
  | 'cancelled'

export interface SubmissionsTable {
  id: string
  account_id: string
  environment: Environment
  template_id: string
  status: SubmissionStatus
  send_email: number
  signing_order: 'preserved' | 'random'
  expires_at: string | null
  redirect_url: string | null
  bcc_email: string | null
  reply_to: string | null
  message_subject: string | null
  message_body: string | null
  metadata: string
  created_at: string
  updated_at: string
  completed_at: string | null
  cancelled_at: string | null
  declined_at: string | null
  /** When the last signer signed: the final PDF is being made; no cancel or expiry from then on. */
  all_signed_at: string | null
  /** The sealed final PDF (one per submission) and its SHA-256, set with `completed`. */
  final_pdf_key: string | null
  final_pdf_sha256: string | null
  audit_pdf_key: string | null
  audit_json_key: string | null
  /** Why the last attempt to make the final PDF failed, while it is retried or after it gave up. */
  finalize_error: string | null
  /**
   * 1: a test-environment copy made by the editor's "preview as a signer" (docs/console.md#preview-as-a-signer),
   * which sends nothing — no mail, no webhook delivery; 0 on every other submission.
   */
  preview: number
  /** The effective reminder policy (docs/api.md#reminders), in policy hours; all null: no reminders. */
  reminder_first_hours: number | null
  reminder_every_hours: number | null
  reminder_max_count: number | null
  /** The bulk send that made it and its row there (docs/api.md#bulk-send); unique together. */
  bulk_send_id: string | null
  bulk_send_row: number | null
  /** When it reached a final status: a retention policy counts from it (docs/privacy.md). */
  ended_at: string | null
  /** Set by the purge (docs/privacy.md#purge); the personal columns are empty from then on. */
  purged_at: string | null
  /** The sealed audit trail's SHA-256, looked up by POST /v1/verify as `final_pdf_sha256` is. */
  audit_pdf_sha256: string | null
}

export type SubmitterStatus = 'pending' | 'opened' | 'signed' | 'declined' | 'pre_signed'

export interface SubmittersTable {
  id: string
  account_id: string
  environment: Environment
  submission_id: string
  /** 0-based order in the request's `submitters` array (preserved signing order). */
  position: number
  role: string
  /** As written, lower-cased (docs/api.md#e-mail-addresses): what the API, page, mails and PDFs show. */
  email: string
  /** The comparison key of `email` (NFC, ASCII domain): the `email` filter reads it. */
  email_key: string
  name: string | null
  phone: string | null
  external_id: string | null
  metadata: string
  status: SubmitterStatus
  send_email: number
  require_email_2fa: number
  /** The secret of the signing URL (≥ 128 bits); unique across all accounts. */
  signing_slug: string
  /** JSON: field name → value (prefilled or signed). */
  values: string
  created_at: string
  updated_at: string
  opened_at: string | null
  signed_at: string | null
  declined_at: string | null
  opened_ip: string | null
  opened_user_agent: string | null
  /** How the signer first reached the document: `link` (the signing URL) or `embed`. */
  opened_via: 'link' | 'embed' | null
  signed_ip: string | null
  signed_user_agent: string | null
  declined_ip: string | null
  declined_user_agent: string | null
  decline_reason: string | null
  /** When the signer last entered the right e-mail code; null without e-mail 2FA. */
  email_2fa_verified_at: string | null
  /** The signing page's language (en, fr, de, es) at the signature or refusal. */
  page_language: string | null
  /** Reminders sent to this signer, automatic and manual (docs/api.md#reminders). */
  reminders_sent: number
  /** The automatic ones: bounded by `max_count`, and the key of the reminder job (one per number). */
  auto_reminders_sent: number
  /** When the next automatic reminder is due; null when none is (not their turn, stopped, done). */
  next_reminder_at: string | null
  /** When the last reminder of either kind went out: the remind route's one-per-hour limit. */
  last_reminded_at: string | null
  /**
   * 1: a signer group (docs/api.md#signer-groups), its people in group_members; `email` and
   * `email_key` are '' (answered null) and `name` null until a member signs or declines.
   */
  grouped: number
}

export interface WebhookEndpointsTable {
  id: string
  account_id: string
  environment: Environment
  url: string
  /** JSON: the subscribed submission event types. */
  events: string
  /** The `whsec_…` secret sealed with a key derived from PARAPH_SECRET: it signs, it is never shown again. */
  secret_sealed: string
  /** After a rotation: the old secret, still signing until `previous_secret_expires_at`. */
  previous_secret_sealed: string | null
  previous_secret_expires_at: string | null
  /** Failed attempts since the last success, over every delivery of the endpoint. */
  consecutive_failures: number
  /** 1 after 8 consecutive failures (docs/api.md#health), until a success. */
  failing: number
  /** The first failure of the current run of failures. */
  failing_since: string | null
  /** Set 7 days into a failing run without success; cleared by a 2xx of the test endpoint. */
  disabled_at: string | null
  last_success_at: string | null
  last_success_status: number | null
  last_failure_at: string | null
  last_failure_reason: string | null
  created_at: string
  updated_at: string
  /** DELETE: inactive for good, receives nothing more. */
  deleted_at: string | null
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped'

export interface WebhookDeliveriesTable {
  id: string
  account_id: string
  environment: Environment
  endpoint_id: string
  event_id: string
  event_type: string
  /** The schedule's origin (WEBHOOK_RETRY_SCHEDULE counts from the event). */
  event_created_at: string
  /** The exact bytes POSTed on every attempt (docs/webhooks.md#the-body), frozen at creation. */
  body: string
  state: DeliveryState
  /** Attempts claimed so far; the claim of attempt n sets it to n and fences its record. */
  attempts: number
  next_attempt_at: string
  /** The lease of the attempt in flight. */
  locked_until: string | null
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  delivered_at: string | null
  /** 1 for a test event's delivery (POST …/test, migration 0019): never retried on a schedule, no count against health. */
  test: number
}

export interface WebhookAttemptsTable {
  delivery_id: string
  number: number
  endpoint_id: string
  started_at: string
  duration_ms: number
  /** The receiver's HTTP status, or null when no answer came (the error says why). */
  status: number | null
  error: string | null
  succeeded: number
  /** At most the first 64 KB of the receiver's answer, as text. */
  response_body: string | null
}

/** The signature ledger (docs/usage.md#what-counts): one row per submitter signed or pre-signed. */
export interface SignaturesTable {
  /** `sig_` + the submitter id's 24 characters: one id per submitter, as the unique key is. */
  id: string
  account_id: string
  environment: Environment
  submitter_id: string
  submission_id: string
  kind: 'signed' | 'pre_signed'
  signed_at: string
}

/** Ledger rows per account, environment and UTC day, in a few slots (summed when read). */
export interface SignatureDaysTable {
  account_id: string
  environment: Environment
  /** `YYYY-MM-DD`, UTC. */
  day: string
  slot: number
  signatures: number
}

export interface BootstrapTable {
  name: string
  created_at: string
}

/** One row per key, route (`GET /v1/submissions/:id`) and UTC day (`YYYY-MM-DD`) it was called. */
export interface KeyRouteDaysTable {
  key_id: string
  account_id: string
  environment: Environment
  route: string
  day: string
}

/** One deprecation notice queued per account and deprecated route (`paraph deprecations notify`). */
export interface DeprecationNoticesTable {
  account_id: string
  route: string
  sent_to: string
  queued_at: string
}

/**
 * The /v1 requests made with a valid key of one account and environment, written
 * together: one row per batch (request-log-writer.ts), read back by request-log-store.ts.
 */
export interface RequestLogBatchesTable {
  /** The id of the batch's first request. */
  id: string
  account_id: string
  environment: Environment
  /** When its first and last requests were answered (ISO 8601, UTC). */
  first_at: string
  last_at: string
  /** The request ids' process prefix, and the range of their counters (lib/ids.ts). */
  id_prefix: string
  first_seq: number | string
  last_seq: number | string
  /** `,200,404,`: every status in the batch, to skip batches a status filter cannot match. */
  statuses: string
  /** `|/v1/health|/v1/submissions/{id}|`: every route (empty for an unknown one), likewise. */
  routes: string
  count: number
  /** JSON: the requests by column (form 2) or as RECORD_FIELDS arrays (form 1), request-log-form.ts. */
  records: string
}

export interface Tables {
  accounts: AccountsTable
  api_keys: ApiKeysTable
  idempotency_keys: IdempotencyKeysTable
  events: EventsTable
  jobs: JobsTable
  bootstrap: BootstrapTable
  templates: TemplatesTable
  submissions: SubmissionsTable
  submitters: SubmittersTable
  email_2fa_codes: Email2faCodesTable
  signing_progress: SigningProgressTable
  group_members: GroupMembersTable
  bulk_sends: BulkSendsTable
  bulk_send_rows: BulkSendRowsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  signatures: SignaturesTable
  signature_days: SignatureDaysTable
  key_route_days: KeyRouteDaysTable
  deprecation_notices: DeprecationNoticesTable
  request_log_batches: RequestLogBatchesTable
  members: MembersTable
  console_sign_in_links: ConsoleSignInLinksTable
  console_sessions: ConsoleSessionsTable
  console_sign_in_requests: ConsoleSignInRequestsTable
  template_drafts: TemplateDraftsTable
  retention_policies: RetentionPoliciesTable
  legal_holds: LegalHoldsTable
  legal_hold_submissions: LegalHoldSubmissionsTable
  erasures: ErasuresTable
  signing_request_resends: SigningRequestResendsTable
}

export type Db = Kysely<Tables>
export type Tx = Transaction<Tables>
/** Either the database or an open transaction: store functions accept both, the caller owns the transaction. */
export type Executor = Kysely<Tables> | Transaction<Tables>
