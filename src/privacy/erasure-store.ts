// docs/privacy.md#erasure: the erasures table, and the search for one person's submissions. The
// address itself is never stored: the row keeps an HMAC of its comparison key under a key derived
// from PARAPH_SECRET (a plain hash of an address is guessable).

import type { ErasuresTable, Executor, Scope, Tx } from '../db/tables.ts'

/** What became of one submission of the person. */
export interface ErasureItem {
  submission_id: string
  outcome: 'purged' | 'already_purged' | 'not_ended' | 'held' | 'pending'
}

/**
 * The submissions of the scope where the address signs or was a member of a signer group, oldest
 * first (through `submitters_email_key_order` and `group_members_email_key_order`).
 */
export async function submissionsOfAddress(db: Executor, scope: Scope, emailKey: string): Promise<string[]> {
  const signers = await db
    .selectFrom('submitters')
    .select(['submission_id', 'created_at'])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('email_key', '=', emailKey)
    .execute()
  const members = await db
    .selectFrom('group_members')
    .select(['submission_id', 'submitter_created_at as created_at'])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('email_key', '=', emailKey)
    .execute()
  const ordered = [...signers, ...members].sort((a, b) =>
    a.created_at === b.created_at
      ? a.submission_id.localeCompare(b.submission_id)
      : a.created_at.localeCompare(b.created_at),
  )
  return [...new Set(ordered.map((r) => r.submission_id))]
}

export async function insertErasure(tx: Tx, row: ErasuresTable): Promise<void> {
  await tx.insertInto('erasures').values(row).execute()
}

export async function findErasure(db: Executor, scope: Scope, id: string) {
  return db
    .selectFrom('erasures')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
}

/** For the job: the erasure by id alone (its scope is in the row). */
export async function findErasureForJob(db: Executor, id: string) {
  return db.selectFrom('erasures').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Ends a pending erasure with its report; undefined when another run ended it first. */
export async function completeErasure(tx: Tx, id: string, report: ErasureItem[], at: string) {
  return tx
    .updateTable('erasures')
    .set({ status: 'completed', report: JSON.stringify(report), completed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst()
}
