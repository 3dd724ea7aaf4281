import type { Environment } from './tables.ts'

// Row types of migration 0027 (docs/privacy.md): retention policies, legal holds, erasures.

export interface RetentionPoliciesTable {
  account_id: string
  environment: Environment
  /** 1–3650, or null: kept forever (the default, also when no row exists). */
  delete_after_days: number | null
  /** JSON array of the final statuses the policy applies to. */
  applies_to: string
  updated_at: string
}

export interface LegalHoldsTable {
  /** `hold_` + 24 base62. */
  id: string
  account_id: string
  environment: Environment
  reason: string
  created_at: string
  /** Null while it holds. */
  released_at: string | null
}

export interface LegalHoldSubmissionsTable {
  hold_id: string
  submission_id: string
  /** Order in the request's `submission_ids`. */
  position: number
}

export interface ErasuresTable {
  /** `era_` + 24 base62. */
  id: string
  account_id: string
  environment: Environment
  /** HMAC-SHA256 of the address's comparison key under a key derived from PARAPH_SECRET: never the address. */
  email_hmac: string
  status: 'pending' | 'completed'
  /** JSON: the submissions found and what became of each. */
  report: string
  created_at: string
  completed_at: string | null
}
