// docs/privacy.md#what-a-purge-keeps: the JSON copies of a purged submission (journal events,
// webhook delivery bodies, idempotent responses) keep what proves and drop what identifies. An
// allowlist, not a denylist: a key not named here (a new field, `metadata`, `values`, `email`,
// `name`, a URL, an address in a change record) becomes null, so a field added later can never
// leak through a purge it was not taught about.

const KEPT_KEYS: ReadonlySet<string> = new Set([
  'id',
  'object',
  'type',
  'status',
  'data',
  'submitters',
  'members',
  'reminders',
  'template_id',
  'submission_id',
  'submitter_id',
  'bulk_send_id',
  'event_id',
  'role',
  'position',
  'send_email',
  'signing_order',
  'require_email_2fa',
  'reminders_sent',
  'next_reminder_at',
  'first_after_hours',
  'every_hours',
  'max_count',
  'created_at',
  'updated_at',
  'opened_at',
  'signed_at',
  'declined_at',
  'completed_at',
  'cancelled_at',
  'expires_at',
  'purged_at',
  'livemode',
  'environment',
  'api_version',
  'test',
])

/** The value with every key outside the allowlist set to null, at any depth. */
export function scrubValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubValue)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, KEPT_KEYS.has(key) ? scrubValue(inner) : null]),
  )
}

/** The same for a JSON text; a text that is not JSON is dropped whole ('null'). */
export function scrubJson(text: string): string {
  try {
    return JSON.stringify(scrubValue(JSON.parse(text)))
  } catch {
    return 'null'
  }
}
