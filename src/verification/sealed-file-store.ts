// The submission whose final PDF or audit trail has this SHA-256, in the caller's account and
// environment (the scope in the WHERE): POST /v1/verify. The hashes outlive a purge
// (docs/api.md#verification), so a purged submission is still found.
import type { Executor, Scope } from '../db/tables.ts'

export interface SealedFile {
  submissionId: string
  document: 'final' | 'audit_trail'
  /** The seal's time: the submission's completion. */
  sealedAt: string | null
}

/** Two lookups, each on its own index (submissions_final_sha256, submissions_audit_sha256). */
export async function findSealedFile(
  db: Executor,
  scope: Scope,
  sha256: string,
): Promise<SealedFile | undefined> {
  for (const [column, document] of [
    ['final_pdf_sha256', 'final'],
    ['audit_pdf_sha256', 'audit_trail'],
  ] as const) {
    const row = await db
      .selectFrom('submissions')
      .select(['id', 'completed_at'])
      .where(column, '=', sha256)
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst()
    if (row) return { submissionId: row.id, document, sealedAt: row.completed_at }
  }
  return undefined
}
