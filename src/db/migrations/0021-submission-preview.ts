import type { Kysely } from 'kysely'

// Issue #33 item 3, the editor's "preview as a signer" (docs/console.md#preview-as-a-signer): a
// submission made by the preview is a test-environment copy that sends nothing. `preview` is 1 on
// its row, 0 on every other: its events make no webhook deliveries and its signing page says it
// is a preview.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submissions')
    .addColumn('preview', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').dropColumn('preview').execute()
}
