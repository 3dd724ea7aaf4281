// Template drafts (the console's template editor): the scope is in every WHERE, and an expired
// draft is not found. A draft holds the uploaded PDF and, since issue #33, the editor's work on it
// (`state`), saved as the editor goes so that leaving the page loses nothing.

import type { Executor, Scope, TemplateDraftsTable } from '../../db/tables.ts'
import type { ReportedField } from '../../documents/field-report.ts'
import type { AuthenticatedKey, ConsoleScope } from '../../http/caller.ts'
import { toIso } from '../../lib/clock.ts'
import type { DraftField } from './template-draft-schemas.ts'

/** How long an uploaded PDF stays usable in the editor. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000

/** Where the draft's first fields came from: none (a PDF), its tags, or a copied template. */
export type DraftSource = 'pdf' | 'tags' | 'template'

/** The editor's work: the template's name and slug as typed, the fields drawn. */
export interface DraftState {
  name: string
  slug: string
  source: DraftSource
  fields: DraftField[]
  tag_report: ReportedField[]
}

export interface TemplateDraft {
  id: string
  /** The uploaded document's name (the template's document keeps it); the template's is `state.name`. */
  name: string
  blob_key: string
  pages: { width: number; height: number }[]
  expires_at: string
  updated_at: string | null
  state: DraftState
}

type Row = Pick<
  TemplateDraftsTable,
  'id' | 'name' | 'blob_key' | 'pages' | 'expires_at' | 'updated_at' | 'state'
>
const COLUMNS = ['id', 'name', 'blob_key', 'pages', 'expires_at', 'updated_at', 'state'] as const

function fromRow(row: Row): TemplateDraft {
  const state: DraftState = row.state
    ? JSON.parse(row.state)
    : { name: row.name, slug: '', source: 'pdf', fields: [], tag_report: [] }
  return { ...row, pages: JSON.parse(row.pages), state }
}

/**
 * Stores a new draft of the scope's, for the member (or key) that made it, usable for
 * DRAFT_LIFETIME_MS from `now`, with the editor's starting state; answers it as the routes show it.
 */
export async function insertTemplateDraft(
  db: Executor,
  scope: AuthenticatedKey,
  now: Date,
  input: Pick<TemplateDraft, 'id' | 'name' | 'blob_key' | 'pages'> & {
    state: Omit<DraftState, 'name' | 'slug'>
  },
): Promise<TemplateDraft> {
  const row: TemplateDraftsTable = {
    id: input.id,
    name: input.name,
    blob_key: input.blob_key,
    pages: JSON.stringify(input.pages.map((p) => ({ width: p.width, height: p.height }))),
    account_id: scope.accountId,
    environment: scope.environment,
    member_id: scope.via === 'console' ? scope.memberId : scope.keyId,
    created_at: toIso(now),
    expires_at: toIso(new Date(now.getTime() + DRAFT_LIFETIME_MS)),
    state: JSON.stringify({ name: input.name, slug: '', ...input.state }),
    updated_at: null,
    template_id: null,
  }
  await db.insertInto('template_drafts').values(row).execute()
  return fromRow(row)
}

export async function findTemplateDraft(
  db: Executor,
  scope: Scope,
  id: string,
  now: Date,
): Promise<TemplateDraft | undefined> {
  const row = await db
    .selectFrom('template_drafts')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('expires_at', '>', toIso(now))
    .executeTakeFirst()
  return row && fromRow(row)
}

/** The editor's work saved over the last; undefined when the draft is not the scope's or expired. */
export async function saveTemplateDraftState(
  db: Executor,
  scope: Scope,
  id: string,
  now: Date,
  state: DraftState,
): Promise<TemplateDraft | undefined> {
  const result = await db
    .updateTable('template_drafts')
    .set({ state: JSON.stringify(state), updated_at: toIso(now) })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('expires_at', '>', toIso(now))
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) return undefined
  return findTemplateDraft(db, scope, id, now)
}

/** The draft made a template: no longer offered to resume. */
export async function markTemplateDraftSaved(
  db: Executor,
  scope: Scope,
  id: string,
  templateId: string,
): Promise<void> {
  await db
    .updateTable('template_drafts')
    .set({ template_id: templateId })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .execute()
}

/** Discarded by its member: expired now, so the housekeeping task deletes it and its blobs. */
export async function discardTemplateDraft(
  db: Executor,
  scope: ConsoleScope,
  id: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('template_drafts')
    .set({ expires_at: toIso(now) })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('member_id', '=', scope.memberId)
    .where('expires_at', '>', toIso(now))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** The member's drafts still open (not expired, not made a template), last worked on first. */
export async function listOpenTemplateDrafts(
  db: Executor,
  scope: ConsoleScope,
  now: Date,
  limit: number,
): Promise<TemplateDraft[]> {
  const rows = await db
    .selectFrom('template_drafts')
    .select([...COLUMNS, 'created_at'])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('member_id', '=', scope.memberId)
    .where('expires_at', '>', toIso(now))
    .where('template_id', 'is', null)
    .execute()
  const at = (r: (typeof rows)[number]) => r.updated_at ?? r.created_at
  return rows
    .sort((a, b) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : b.id.localeCompare(a.id)))
    .slice(0, limit)
    .map(fromRow)
}
