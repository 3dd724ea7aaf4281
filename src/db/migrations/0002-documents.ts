import type { Kysely } from 'kysely'

// Templates (reusable frozen PDFs with fields), submissions and their submitters
// (docs/api.md#creating-a-submission, docs/api.md#templates). Documents and fields are JSON text:
// they are written once with the template and read whole.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_via', 'text', (c) => c.notNull())
    .addColumn('internal', 'integer', (c) => c.notNull())
    .addColumn('documents', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('archived_at', 'text')
    .execute()
  await db.schema
    .createIndex('templates_slug')
    .on('templates')
    .columns(['account_id', 'environment', 'slug'])
    .unique()
    .execute()
  await db.schema
    .createIndex('templates_scope_order')
    .on('templates')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull().references('templates.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('send_email', 'integer', (c) => c.notNull())
    .addColumn('signing_order', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('bcc_email', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('message_subject', 'text')
    .addColumn('message_body', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .execute()
  await db.schema
    .createIndex('submissions_scope_order')
    .on('submissions')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('submissions_template')
    .on('submissions')
    .columns(['account_id', 'environment', 'template_id'])
    .execute()

  await db.schema
    .createTable('submitters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('phone', 'text')
    .addColumn('external_id', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('send_email', 'integer', (c) => c.notNull())
    .addColumn('require_email_2fa', 'integer', (c) => c.notNull())
    .addColumn('signing_slug', 'text', (c) => c.notNull().unique())
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('declined_at', 'text')
    .execute()
  await db.schema
    .createIndex('submitters_submission')
    .on('submitters')
    .columns(['submission_id', 'position'])
    .execute()
  await db.schema
    .createIndex('submitters_scope_order')
    .on('submitters')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('submitters_email')
    .on('submitters')
    .columns(['account_id', 'environment', 'email'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['submitters', 'submissions', 'templates']) await db.schema.dropTable(table).execute()
}
