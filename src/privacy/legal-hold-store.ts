// docs/privacy.md#legal-holds: the legal_holds table and the submissions each names. Every read and
// write takes the scope into its WHERE.

import { type Position, page } from '../db/keyset.ts'
import type { Executor, LegalHoldsTable, Scope, Tx } from '../db/tables.ts'

/** Rows inserted per statement (SQLite binds at most 32 766 parameters). */
const INSERT_CHUNK = 500

export async function insertLegalHold(tx: Tx, hold: LegalHoldsTable, submissionIds: string[]): Promise<void> {
  await tx.insertInto('legal_holds').values(hold).execute()
  const rows = submissionIds.map((submission_id, position) => ({ hold_id: hold.id, submission_id, position }))
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insertInto('legal_hold_submissions')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute()
  }
}

/** Which of `ids` are submissions of the scope. */
export async function existingSubmissions(db: Executor, scope: Scope, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>()
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    const rows = await db
      .selectFrom('submissions')
      .select('id')
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .where('id', 'in', ids.slice(i, i + INSERT_CHUNK))
      .execute()
    for (const row of rows) found.add(row.id)
  }
  return found
}

export async function findLegalHold(db: Executor, scope: Scope, id: string) {
  return db
    .selectFrom('legal_holds')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
}

/** Newest first; with `submissionId`, only the holds that name it. */
export async function listLegalHolds(
  db: Executor,
  scope: Scope,
  filters: { submissionId?: string; status?: 'active' | 'released' },
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('legal_holds')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
  if (filters.status) query = query.where('released_at', filters.status === 'active' ? 'is' : 'is not', null)
  if (filters.submissionId) {
    const submissionId = filters.submissionId
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('legal_hold_submissions')
          .select('legal_hold_submissions.hold_id')
          .whereRef('legal_hold_submissions.hold_id', '=', 'legal_holds.id')
          .where('legal_hold_submissions.submission_id', '=', submissionId),
      ),
    )
  }
  return page(query, after, limit).execute()
}

/** The submissions of each hold, in the order the request gave them. */
export async function heldSubmissions(db: Executor, holdIds: string[]): Promise<Map<string, string[]>> {
  const held = new Map<string, string[]>(holdIds.map((id) => [id, []]))
  if (holdIds.length === 0) return held
  const rows = await db
    .selectFrom('legal_hold_submissions')
    .select(['hold_id', 'submission_id'])
    .where('hold_id', 'in', holdIds)
    .orderBy('hold_id')
    .orderBy('position')
    .execute()
  for (const row of rows) held.get(row.hold_id)?.push(row.submission_id)
  return held
}

/** Releases a hold in force; undefined when it was released already (or by a concurrent call). */
export async function releaseLegalHold(tx: Tx, hold: LegalHoldsTable, at: string) {
  return tx
    .updateTable('legal_holds')
    .set({ released_at: at })
    .where('id', '=', hold.id)
    .where('account_id', '=', hold.account_id)
    .where('environment', '=', hold.environment)
    .where('released_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}
