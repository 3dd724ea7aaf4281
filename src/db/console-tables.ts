// Row types of the console's tables: members, sign-in links and sessions, template
// drafts and resends. Re-exported by tables.ts, whose Tables lists them with the rest.
import type { Environment } from './tables.ts'

export type MemberRole = 'admin' | 'editor'

/** A person of an account who signs in to the console (docs/api.md#e-mail-addresses). */
export interface MembersTable {
  id: string
  account_id: string
  /** As written, lower-cased: what the console shows and mails go to. */
  email: string
  /** The comparison key (NFC, ASCII domain): one active member per account and key. */
  email_key: string
  role: MemberRole
  created_at: string
  last_sign_in_at: string | null
  /** Set when removed: the row stays, the address may be added again. */
  removed_at: string | null
}

/** A console sign-in link, stored by the SHA-256 of its token; valid 15 minutes, used once. */
export interface ConsoleSignInLinksTable {
  token_hash: string
  member_id: string
  account_id: string
  created_at: string
  expires_at: string
  used_at: string | null
  /** The address that asked for the link. */
  ip: string | null
}

/** A console session, stored by the SHA-256 of its cookie's token. */
export interface ConsoleSessionsTable {
  id: string
  token_hash: string
  member_id: string
  account_id: string
  /** The environment the console shows now (switchable). */
  environment: Environment
  csrf_token: string
  created_at: string
  /** Slides with use (written at most once a minute): idle expiry is 12 hours after it. */
  last_seen_at: string
  /** Absolute expiry, 7 days after creation. */
  expires_at: string
  ended_at: string | null
}

/** One request for sign-in links, for its limits (per address, per client address). */
export interface ConsoleSignInRequestsTable {
  /** SHA-256 of the lower-cased address: the limit needs no readable address. */
  email_hash: string
  ip: string
  created_at: string
}

/** A PDF uploaded in the console's template editor, before it becomes a template (kept 24 h). */
export interface TemplateDraftsTable {
  id: string
  account_id: string
  environment: Environment
  member_id: string
  name: string
  blob_key: string
  /** JSON: `[{ width, height }]` in points, one per page. */
  pages: string
  created_at: string
  expires_at: string
  /** JSON: the editor's work (`DraftState`, console/drafts/template-draft-store.ts); null before 0020. */
  state: string | null
  /** When the editor last saved its work (null: never since the upload). */
  updated_at: string | null
  /** The template made from the draft, once saved as one. */
  template_id: string | null
}

/** A signing request sent again from the console (console/resend/resend-signing-request.ts). */
export interface SigningRequestResendsTable {
  submitter_id: string
  account_id: string
  environment: Environment
  submission_id: string
  member_id: string
  created_at: string
}
