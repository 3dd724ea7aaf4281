// Template drafts (the console's template editor): the scope is in every WHERE, and an expired
// draft is not found.
import type { Executor, Scope, TemplateDraftsTable } from '../db/tables.ts'
import { toIso } from '../lib/clock.ts'

/** How long an uploaded PDF stays usable in the editor. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000

export interface TemplateDraft {
  id: string
  name: string
  blob_key: string
  pages: { width: number; height: number }[]
  expires_at: string
}

export async function insertTemplateDraft(db: Executor, row: TemplateDraftsTable): Promise<void> {
  await db.insertInto('template_drafts').values(row).execute()
}

export async function findTemplateDraft(
  db: Executor,
  scope: Scope,
  id: string,
  now: Date,
): Promise<TemplateDraft | undefined> {
  const row = await db
    .selectFrom('template_drafts')
    .select(['id', 'name', 'blob_key', 'pages', 'expires_at'])
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('expires_at', '>', toIso(now))
    .executeTakeFirst()
  return row && { ...row, pages: JSON.parse(row.pages) }
}
