// docs/privacy.md#what-a-purge-deletes: every table, and what a purge does to a submission's rows
// in it. `satisfies Record<keyof Tables, …>` makes a table added to db/tables.ts a compile error
// here until someone decides whether it holds a submission's personal data (security notes: "a new
// table or blob kind must join the inventory"). purge-store.ts does what this says;
// purge-submission.test.ts searches a whole dump for the values afterwards.

import type { Tables } from '../db/tables.ts'

export type PurgeTreatment = 'scrubbed' | 'deleted' | 'kept' | 'unrelated'

export const PURGE_INVENTORY = {
  submissions: [
    'scrubbed',
    'metadata, message, reply-to, bcc, redirect URL, file keys; keeps statuses, times, hashes',
  ],
  submitters: [
    'scrubbed',
    'address, name, phone, external id, metadata, values, IPs, user agents, decline reason',
  ],
  group_members: ['deleted', 'the people of a signer group'],
  signing_progress: ['deleted', 'values saved and not signed'],
  email_2fa_codes: ['deleted', 'the address a code was sent to'],
  signing_request_resends: ['deleted', 'who resent a request'],
  events: ['scrubbed', 'data allowlisted (scrub-json.ts), actor IP and user agent removed'],
  webhook_deliveries: ['scrubbed', 'bodies allowlisted like the events they carry'],
  webhook_attempts: ['scrubbed', "the receiver's answers to those deliveries"],
  jobs: ['deleted', "the submission's mails (rendered bodies), reminders and finalization"],
  idempotency_keys: ['scrubbed', 'stored answers naming the submission, allowlisted'],
  bulk_send_rows: ['scrubbed', 'the row input and external id of the row that made it'],
  templates: ['scrubbed', 'a template made for this submission alone: names, fields, metadata'],
  signatures: ['kept', 'the usage ledger: ids and times, nothing personal'],
  signature_days: ['kept', 'counts per day'],
  bulk_sends: ['kept', 'the job: options for every row alike, counts'],
  legal_holds: ['kept', "the account's holds: reason and times"],
  legal_hold_submissions: ['kept', 'which submissions a hold names'],
  erasures: ['kept', 'the report, with the address as a keyed hash only'],
  retention_policies: ['unrelated', 'per account'],
  request_log_batches: ['scrubbed', 'no bodies; an address named in an error message becomes [purged]'],
  accounts: ['unrelated', 'the sender'],
  api_keys: ['unrelated', 'the sender'],
  bootstrap: ['unrelated', 'the instance'],
  webhook_endpoints: ['unrelated', 'the sender'],
  key_route_days: ['unrelated', 'the sender'],
  deprecation_notices: ['unrelated', 'the sender'],
  members: ['unrelated', "the sender's console members"],
  console_sign_in_links: ['unrelated', "the sender's console members"],
  console_sessions: ['unrelated', "the sender's console members"],
  console_sign_in_requests: ['unrelated', "the sender's console members"],
  template_drafts: ['unrelated', "the sender's drafts"],
} as const satisfies Record<keyof Tables, readonly [PurgeTreatment, string]>
