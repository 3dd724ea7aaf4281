// Row types of what belongs to a signer beside the submitter row: the people of a signer group,
// a signer's e-mail code and saved progress. Re-exported by tables.ts, whose Tables lists them.
import type { Environment } from './tables.ts'

export type GroupMemberStatus = 'pending' | 'signed' | 'superseded' | 'declined'

/**
 * One person of a signer group (docs/api.md#signer-groups, migration 0025): any one member signs
 * for the submitter's role. Each has a signing link of their own.
 */
export interface GroupMembersTable {
  /** `grm_` + 24 base62. */
  id: string
  submitter_id: string
  submission_id: string
  account_id: string
  environment: Environment
  /** 0-based order in the request's `members`. */
  position: number
  /** As written, lower-cased (docs/api.md#e-mail-addresses). */
  email: string
  /** The comparison key of `email`: two members of one group never share one. */
  email_key: string
  /** The member's own name, else the submitter's `name` of the request; null without either. */
  name: string | null
  /**
   * `pending` until the role is done; `signed` for the member who signed, `superseded` for the
   * others then; `declined` for a member who declined for the role (the others stay `pending`).
   */
  status: GroupMemberStatus
  /** The secret of the member's signing URL (≥ 128 bits); unique across all accounts. */
  signing_slug: string
  /** When this member last entered the right e-mail code; copied to the submitter when they sign. */
  email_2fa_verified_at: string | null
  signed_at: string | null
  /** The submitter's created_at: the `email` filter's list order (index group_members_email_key_order). */
  submitter_created_at: string
  created_at: string
  updated_at: string
}

/**
 * What a signer has filled in and not signed yet (docs/api.md#saving-progress): one row per
 * submitter — per member of a signer group — seen by that signer only, deleted when they sign or
 * decline and when the submission ends.
 */
export interface SigningProgressTable {
  submitter_id: string
  /** The group member who saved it; '' for a signer who is no group. */
  member_id: string
  account_id: string
  environment: Environment
  submission_id: string
  /** JSON (documents/signing-progress.ts): field name → value, images kept once each by hash. */
  progress: string
  updated_at: string
}

/** The live e-mail code of a signer (one row per submitter and group member, replaced by each send). */
export interface Email2faCodesTable {
  submitter_id: string
  /** The group member it was sent to; '' for a signer who is no group. */
  member_id: string
  account_id: string
  environment: Environment
  /** HMAC-SHA256 of the code under a key derived from PARAPH_SECRET; the code itself is never kept. */
  code_hash: string
  /** The address it was mailed to: a code sent before the address changed is void. */
  sent_to: string
  sent_at: string
  expires_at: string
  wrong_tries: number
  /** Set by the right code: a code is used once. */
  used_at: string | null
  /** JSON: when the signer's last codes were sent, at most 10 (the daily cap). */
  recent_sends: string
}
