// Templates, always read and written with the scope in the WHERE.

import { type Position, page } from '../db/keyset.ts'
import { prepared } from '../db/prepared.ts'
import type { Executor, Scope, TemplatesTable } from '../db/tables.ts'
import type { StoredDocument, StoredField } from '../documents/document-model.ts'

export interface TemplateRecord extends Omit<TemplatesTable, 'documents' | 'fields' | 'metadata'> {
  documents: StoredDocument[]
  fields: StoredField[]
  metadata: Record<string, string | number | boolean | null>
}

export function toRecord(row: TemplatesTable): TemplateRecord {
  return {
    ...row,
    documents: JSON.parse(row.documents) as StoredDocument[],
    fields: JSON.parse(row.fields) as StoredField[],
    metadata: JSON.parse(row.metadata) as TemplateRecord['metadata'],
  }
}

export async function insertTemplate(db: Executor, template: TemplateRecord): Promise<void> {
  await db
    .insertInto('templates')
    .values({
      ...template,
      documents: JSON.stringify(template.documents),
      fields: JSON.stringify(template.fields),
      metadata: JSON.stringify(template.metadata),
    })
    .execute()
}

export async function findTemplate(
  db: Executor,
  scope: Scope,
  id: string,
): Promise<TemplateRecord | undefined> {
  const row = await db
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
  return row && toRecord(row)
}

const selectLayout = prepared((db, id: string, accountId: string, environment: string) =>
  db
    .selectFrom('templates')
    .select(['documents', 'fields'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('environment', '=', environment as Scope['environment']),
)

/** A template's documents and fields alone (the field report of GET /v1/submissions/{id}). */
export async function findTemplateLayout(
  db: Executor,
  scope: Scope,
  id: string,
): Promise<Pick<TemplateRecord, 'documents' | 'fields'> | undefined> {
  const [row] = await selectLayout(db, id, scope.accountId, scope.environment)
  return (
    row && {
      documents: JSON.parse(row.documents) as StoredDocument[],
      fields: JSON.parse(row.fields) as StoredField[],
    }
  )
}

export interface TemplateFilters {
  status?: 'active' | 'archived'
  created_via?: 'api' | 'ui'
}

/** Newest first; the internal templates behind inline-PDF submissions are not listed. */
export async function listTemplates(
  db: Executor,
  scope: Scope,
  filters: TemplateFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('templates')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('internal', '=', 0)
  if (filters.status) query = query.where('status', '=', filters.status)
  if (filters.created_via) query = query.where('created_via', '=', filters.created_via)
  const rows = await page(query, after, limit).execute()
  return rows.map(toRecord)
}

/** Archives an active template; returns the archived record, or undefined when out of scope. */
export async function archiveTemplate(db: Executor, scope: Scope, id: string, at: string) {
  await db
    .updateTable('templates')
    .set({ status: 'archived', archived_at: at, updated_at: at })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('status', '=', 'active')
    .execute()
  return findTemplate(db, scope, id)
}
