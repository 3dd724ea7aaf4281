import type { Kysely } from 'kysely'

// GET /v1/submissions leaves out the console editor's previews (`preview = 0`, migration 0021,
// docs/console.md#preview-as-a-signer). The list's three indexes (0002, 0015) ended in the order
// (created_at, id) right after their filter, so `preview` was checked row by row after the index: a
// preview-heavy account would walk its previews to fill a page. Each index now holds `preview`
// just before the order, so a page is again read in order from the index and stops at `limit + 1`.
const LIST: Array<[name: string, filter: string | null]> = [
  ['submissions_scope_order', null],
  ['submissions_status_order', 'status'],
  ['submissions_template_order', 'template_id'],
]

async function rebuild(db: Kysely<unknown>, withPreview: boolean): Promise<void> {
  for (const [name, filter] of LIST) {
    await db.schema.dropIndex(name).execute()
    const columns = [
      'account_id',
      'environment',
      ...(filter ? [filter] : []),
      ...(withPreview ? ['preview'] : []),
    ]
    await db.schema
      .createIndex(name)
      .on('submissions')
      .columns([...columns, 'created_at', 'id'])
      .execute()
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, true)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, false)
}
