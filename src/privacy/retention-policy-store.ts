// docs/privacy.md#retention-policy: one policy per account and environment; no row is the default
// (keep forever). The periodic task reads every policy in force; a route reads and writes one.

import type { Executor, Scope, SubmissionStatus, Tx } from '../db/tables.ts'

export type EndedStatus = Extract<SubmissionStatus, 'completed' | 'declined' | 'expired' | 'cancelled'>
export const ENDED_STATUSES: readonly EndedStatus[] = ['completed', 'declined', 'expired', 'cancelled']

export interface RetentionPolicy {
  delete_after_days: number | null
  applies_to: EndedStatus[]
  /** Null while the default stands (never written). */
  updated_at: string | null
}

export const DEFAULT_POLICY: RetentionPolicy = {
  delete_after_days: null,
  applies_to: [...ENDED_STATUSES],
  updated_at: null,
}

export async function readRetentionPolicy(db: Executor, scope: Scope): Promise<RetentionPolicy> {
  const row = await db
    .selectFrom('retention_policies')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
  if (!row) return DEFAULT_POLICY
  return {
    delete_after_days: row.delete_after_days,
    applies_to: JSON.parse(row.applies_to) as EndedStatus[],
    updated_at: row.updated_at,
  }
}

export async function writeRetentionPolicy(
  tx: Tx,
  scope: Scope,
  policy: { delete_after_days: number | null; applies_to: EndedStatus[] },
  at: string,
): Promise<void> {
  const values = {
    delete_after_days: policy.delete_after_days,
    applies_to: JSON.stringify(policy.applies_to),
    updated_at: at,
  }
  await tx
    .insertInto('retention_policies')
    .values({ account_id: scope.accountId, environment: scope.environment, ...values })
    .onConflict((c) => c.columns(['account_id', 'environment']).doUpdateSet(values))
    .execute()
}

/** Every policy that deletes something (a number of days), with its scope: what the periodic task applies. */
export async function policiesInForce(db: Executor) {
  const rows = await db
    .selectFrom('retention_policies')
    .selectAll()
    .where('delete_after_days', 'is not', null)
    .orderBy('account_id')
    .orderBy('environment')
    .execute()
  return rows.map((row) => ({
    scope: { accountId: row.account_id, environment: row.environment } satisfies Scope,
    delete_after_days: row.delete_after_days as number,
    applies_to: JSON.parse(row.applies_to) as EndedStatus[],
  }))
}
