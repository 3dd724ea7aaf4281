// Template drafts (the console's template editor): the scope is in every WHERE, and an expired
// draft is not found.

import type { Executor, Scope, TemplateDraftsTable } from '../../db/tables.ts'
import type { AuthenticatedKey } from '../../http/caller.ts'
import { toIso } from '../../lib/clock.ts'

/** How long an uploaded PDF stays usable in the editor. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000

export interface TemplateDraft {
  id: string
  name: string
  blob_key: string
  pages: { width: number; height: number }[]
  expires_at: string
}

/**
 * Stores a new draft of the scope's, for the member (or key) that made it, usable for
 * DRAFT_LIFETIME_MS from `now`; answers it as the routes show it.
 */
export async function insertTemplateDraft(
  db: Executor,
  scope: AuthenticatedKey,
  now: Date,
  input: Pick<TemplateDraft, 'id' | 'name' | 'blob_key' | 'pages'>,
): Promise<TemplateDraft> {
  const draft: TemplateDraft = {
    id: input.id,
    name: input.name,
    blob_key: input.blob_key,
    pages: input.pages.map((p) => ({ width: p.width, height: p.height })),
    expires_at: toIso(new Date(now.getTime() + DRAFT_LIFETIME_MS)),
  }
  const row: TemplateDraftsTable = {
    ...draft,
    pages: JSON.stringify(draft.pages),
    account_id: scope.accountId,
    environment: scope.environment,
    member_id: scope.via === 'console' ? scope.memberId : scope.keyId,
    created_at: toIso(now),
  }
  await db.insertInto('template_drafts').values(row).execute()
  return draft
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
