import type { Kysely } from 'kysely'

// What a signer has filled in so far and not signed (docs/api.md#saving-progress): one row per
// submitter, replaced field by field as the page saves, never read by anyone but that signer, and
// deleted when they sign or decline and when the submission ends. `submission_id` is there to delete
// a submission's rows in the transaction that ends it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_progress')
    .addColumn('submitter_id', 'text', (c) => c.primaryKey().references('submitters.id'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('signing_progress_submission')
    .on('signing_progress')
    .column('submission_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_progress').execute()
}
