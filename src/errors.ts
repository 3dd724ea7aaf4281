// The one error catalogue: every code the service can answer with, its HTTP status and its type
// (docs/api.md#errors). Domain code throws `new ApiError(code, message)`; only the HTTP error
// handler turns it into a response. No Fastify import here.

export type ErrorType = 'authentication_error' | 'invalid_request_error' | 'rate_limit_error' | 'api_error'

interface CodeInfo {
  status: number
  description: string
}

const CATALOGUE = {
  // client errors (docs/api.md#errors)
  missing_api_key: { status: 401, description: 'No Authorization header.' },
  invalid_api_key: { status: 401, description: 'Bad format, unknown or revoked key.' },
  invalid_json: { status: 400, description: 'Body is not valid JSON.' },
  invalid_id: { status: 400, description: 'URL id does not match `<prefix>_<24 base62>`.' },
  idempotency_key_required: { status: 400, description: 'Idempotency-Key header absent or malformed.' },
  invalid_request: {
    status: 422,
    description: 'Body or query does not match the schema; `message` names the first violation.',
  },
  idempotency_key_reused_with_different_body: {
    status: 422,
    description: 'Same Idempotency-Key, different body.',
  },
  invalid_pagination: {
    status: 422,
    description: '`limit` outside 1 to 100, or unreadable, edited or foreign cursor.',
  },
  invalid_status: { status: 422, description: 'Unknown `status` filter value.' },
  invalid_created_via: { status: 422, description: '`created_via` not `ui` or `api`.' },
  invalid_type: { status: 422, description: 'Unknown `type` filter on /v1/events.' },
  invalid_template_id: { status: 422, description: 'Malformed `template_id` filter.' },
  invalid_submission_id: { status: 422, description: 'Malformed `submission_id` filter.' },
  invalid_bulk_send_id: { status: 422, description: 'Malformed `bulk_send_id` filter.' },
  invalid_email: { status: 422, description: '`email` filter longer than 320 characters.' },
  email_not_deliverable: {
    status: 422,
    description:
      'An address whose local part is not ASCII (`jörg@…`) while the SMTP server does not announce SMTPUTF8, or could not be asked whether it does.',
  },
  invalid_month: {
    status: 422,
    description: '`month` on /v1/usage is not a calendar month written `YYYY-MM` (e.g. `2026-11`).',
  },
  invalid_pdf: {
    status: 422,
    description:
      'Unreadable base64, oversize, another file format, unparsable, password-protected, or certified by its author against any change (DocMDP level 1).',
  },
  invalid_pdf_url: { status: 422, description: 'URL does not return a usable PDF.' },
  invalid_docx: { status: 422, description: 'DOCX base64 unreadable.' },
  invalid_field_area: { status: 422, description: 'Zone overflows the page or targets a missing page.' },
  invalid_template_tag: { status: 422, description: 'Malformed `{{...}}` variable or unsupported type.' },
  no_tags_found: { status: 422, description: 'No variable found in the HTML or DOCX.' },
  template_not_found: { status: 422, description: '`template_id` not in scope.' },
  template_archived: { status: 422, description: 'Template is archived.' },
  submitter_role_not_in_template: { status: 422, description: 'A submitter role matches no document role.' },
  phone_2fa_not_supported: {
    status: 422,
    description: '`require_phone_2fa: true` sent; use `require_email_2fa`.',
  },
  invalid_events: {
    status: 422,
    description: 'Webhook events list empty or containing an unknown or non-subscribable type.',
  },
  webhook_url_rejected: { status: 422, description: 'URL refused by the SSRF guard.' },
  webhook_endpoint_limit_reached: { status: 422, description: '25 active endpoints already.' },
  resource_not_found: {
    status: 404,
    description: 'Missing or out-of-scope resource (deliberately the same), or unknown route.',
  },
  submission_not_completed: {
    status: 404,
    description: 'Audit log requested for a non-completed submission.',
  },
  submission_already_finalized: {
    status: 409,
    description: 'Submission already completed, declined, expired or cancelled.',
  },
  bulk_send_already_finalized: {
    status: 409,
    description: 'The bulk send has ended (completed or cancelled): nothing is left to stop.',
  },
  submitter_already_finalized: {
    status: 409,
    description: 'Submitter already signed, declined or pre-signed.',
  },
  slug_already_exists: { status: 409, description: 'Template slug already used.' },
  webhook_delivery_in_flight: {
    status: 409,
    description: 'An attempt of this webhook delivery is under way; retry after it ends.',
  },
  webhook_endpoint_deleted: {
    status: 409,
    description: 'The webhook endpoint was deleted (deactivated): it sends and receives nothing more.',
  },
  idempotency_key_in_use: {
    status: 409,
    description: 'A request with this Idempotency-Key is still being processed; retry after `Retry-After`.',
  },
  request_too_large: { status: 413, description: 'Request body larger than the route allows.' },
  unsupported_content_type: { status: 415, description: 'Request body is not `application/json`.' },
  rate_limit_exceeded: { status: 429, description: 'Per-minute quota exceeded; see `Retry-After`.' },
  reminder_too_soon: {
    status: 429,
    description:
      'The signer was reminded (by hand or automatically) less than an hour ago; see `Retry-After` (docs/api.md#reminders).',
  },
  // signing page (docs/api.md#signing)
  invalid_code: {
    status: 422,
    description: 'Wrong e-mail verification code; the fifth wrong try voids the code.',
  },
  code_expired: {
    status: 422,
    description:
      'No e-mail verification code to check: expired (10 minutes), void after 5 wrong tries, already used, or never sent; ask for a new one.',
  },
  code_resend_too_soon: {
    status: 429,
    description: 'An e-mail code was sent less than 30 seconds ago; see `Retry-After`.',
  },
  code_send_limit_reached: {
    status: 429,
    description: 'At most 10 e-mail codes per signer in 24 hours; see `Retry-After`.',
  },
  email_2fa_not_required: { status: 409, description: 'This signer is not asked for an e-mail code.' },
  missing_required_fields: { status: 422, description: 'Required fields have no value.' },
  invalid_field_value: { status: 422, description: 'A field value does not fit its type.' },
  progress_too_large: {
    status: 413,
    description: "The signer's saved progress would exceed its limit (docs/api.md#limits).",
  },
  not_your_turn: { status: 409, description: 'Preserved order: an earlier signer has not signed yet.' },
  email_2fa_required: {
    status: 403,
    description: 'The signer must verify the code sent by e-mail before this act.',
  },
  submission_not_active: { status: 410, description: 'Submission expired, cancelled or declined.' },
  // personal data (docs/privacy.md)
  submission_purged: {
    status: 410,
    description:
      'The submission was purged (its retention policy, a purge request or an erasure): its documents and personal data are deleted.',
  },
  submission_not_finalized: {
    status: 409,
    description: 'Only an ended submission (completed, declined, expired or cancelled) can be purged.',
  },
  legal_hold_active: {
    status: 409,
    description: 'A legal hold keeps this submission: release the hold before purging it.',
  },
  legal_hold_already_released: { status: 409, description: 'The legal hold was released already.' },
  invalid_signing_token: { status: 401, description: 'Embed token forged or expired.' },
  invalid_file_url: { status: 403, description: 'A signed file URL that was edited or has expired.' },
  // the console (docs/console.md)
  console_session_required: {
    status: 401,
    description: 'No console session cookie, or it has expired or ended; sign in again.',
  },
  csrf_token_invalid: {
    status: 403,
    description:
      "A console write without the session's `X-CSRF-Token`, with a wrong one, or from a foreign `Origin`.",
  },
  console_role_forbidden: { status: 403, description: "The console member's role may not do this." },
  last_admin: { status: 409, description: "Removing or demoting the account's last admin." },
  member_already_exists: { status: 409, description: 'This address is already a member of the account.' },
  sign_in_link_expired: {
    status: 410,
    description:
      'Console sign-in link past its 15 minutes, already used, or its member was removed; ask for a new one.',
  },
  // server errors (docs/api.md#errors)
  storage_upload_failed: { status: 500, description: 'PDF upload to storage failed.' },
  template_create_failed: { status: 500, description: 'Internal template could not be created.' },
  html_render_failed: { status: 500, description: 'HTML could not be rendered.' },
  page_render_failed: {
    status: 500,
    description: 'A document page could not be rendered for the signing page.',
  },
  docx_convert_failed: { status: 500, description: 'DOCX could not be converted.' },
  current_pdf_failed: {
    status: 500,
    description:
      "The signer's document as it stands could not be made (too long, too much memory, or unreadable).",
  },
  current_pdf_busy: {
    status: 503,
    description: 'Too many documents as they stand are being made at once; see `Retry-After`.',
  },
  db_insert_failed: { status: 500, description: 'Database insert failed.' },
  db_update_failed: { status: 500, description: 'Database update failed.' },
  db_error: { status: 500, description: 'Database unavailable or failing.' },
  post_create_fetch_failed: { status: 500, description: 'Object written but not re-read.' },
  post_update_fetch_failed: { status: 500, description: 'Object updated but not re-read.' },
  internal_inconsistency: { status: 500, description: 'Internal inconsistency; retry.' },
  token_issue_failed: { status: 500, description: 'Embed token could not be issued.' },
  handler_error: { status: 500, description: 'Unexpected error; the message carries a request id.' },
  server_misconfigured: { status: 500, description: 'Server configuration problem.' },
  // operational probes
  not_ready: { status: 503, description: 'Readiness probe: the database does not answer.' },
  // — sending: the console's "Resend request" (docs/console.md)
  submitter_not_yet_requested: {
    status: 409,
    description:
      'No signing request was mailed to this signer yet (an earlier signer must sign first, or `send_email` is off for them): nothing to resend, no reminder to send.',
  },
} as const satisfies Record<string, CodeInfo>

export type ErrorCode = keyof typeof CATALOGUE

export const ERROR_CODES = Object.keys(CATALOGUE) as ErrorCode[]

export function statusOf(code: ErrorCode): number {
  return CATALOGUE[code].status
}

export function describeCode(code: ErrorCode): string {
  return CATALOGUE[code].description
}

export function typeOf(code: ErrorCode): ErrorType {
  const status = statusOf(code)
  if (status === 401) return 'authentication_error'
  if (status === 429) return 'rate_limit_error'
  if (status >= 500) return 'api_error'
  return 'invalid_request_error'
}

export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly type: ErrorType
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>
  /** The request field the error is about (`submitters[0].email`), when one is: see fieldError. */
  readonly param: string | undefined

  constructor(
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    cause?: unknown,
    param?: string,
  ) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'ApiError'
    this.code = code
    this.status = statusOf(code)
    this.type = typeOf(code)
    this.headers = headers
    this.param = param
  }
}

/**
 * An error about one field of the request: the message begins with the field's path
 * (`submitters[0].email: must be an e-mail address.`) and the envelope gives that path as `param`
 * (docs/api.md#errors), so a client maps the error to its input without reading the message.
 */
export function fieldError(code: ErrorCode, param: string, problem: string): ApiError {
  return new ApiError(code, `${param}: ${problem}`, {}, undefined, param)
}

/** A row or a 404 identical for missing and out-of-scope resources (docs/api.md#keys). */
export function orNotFound<T>(row: T | undefined | null, what = 'resource'): T {
  if (row === undefined || row === null) throw new ApiError('resource_not_found', `No such ${what}.`)
  return row
}
