import type { Kysely } from 'kysely'

// The console's template editor uploads the PDF once as a draft, shows its pages
// as images, and makes the template from it. A draft lives 24 hours.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('template_drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('template_drafts').execute()
}
