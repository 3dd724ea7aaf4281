import type { Kysely } from 'kysely'

// Issue #35, bulk send (docs/api.md#bulk-send): one template, up to 10 000 rows, created by workers.
// `bulk_sends` holds the job (its options as the request gave them, its counts kept in the
// transaction of each row's result); `bulk_send_rows` one row each, in row order, with what the
// check or the worker made of it. A submission made for a row carries `bulk_send_id` and
// `bulk_send_row` under a unique index: a second creation of one row cannot commit, whatever
// crashed or ran twice. `submissions_bulk_send_order` serves GET /v1/submissions?bulk_send_id=.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_sends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_count', 'integer', (c) => c.notNull())
    .addColumn('failed_count', 'integer', (c) => c.notNull())
    .addColumn('cancelled_count', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .execute()
  await db.schema
    .createIndex('bulk_sends_scope_order')
    .on('bulk_sends')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()
  await db.schema
    .createTable('bulk_send_rows')
    .addColumn('bulk_send_id', 'text', (c) => c.notNull().references('bulk_sends.id'))
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('submission_id', 'text')
    .addColumn('errors', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_send_rows_pk', ['bulk_send_id', 'row'])
    .execute()
  await db.schema
    .createIndex('bulk_send_rows_status')
    .on('bulk_send_rows')
    .columns(['bulk_send_id', 'status', 'row'])
    .execute()
  await db.schema.alterTable('submissions').addColumn('bulk_send_id', 'text').execute()
  await db.schema.alterTable('submissions').addColumn('bulk_send_row', 'integer').execute()
  await db.schema
    .createIndex('submissions_bulk_send_row')
    .on('submissions')
    .columns(['bulk_send_id', 'bulk_send_row'])
    .unique()
    .execute()
  await db.schema
    .createIndex('submissions_bulk_send_order')
    .on('submissions')
    .columns(['account_id', 'environment', 'bulk_send_id', 'preview', 'created_at', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_bulk_send_order').execute()
  await db.schema.dropIndex('submissions_bulk_send_row').execute()
  await db.schema.alterTable('submissions').dropColumn('bulk_send_row').execute()
  await db.schema.alterTable('submissions').dropColumn('bulk_send_id').execute()
  await db.schema.dropTable('bulk_send_rows').execute()
  await db.schema.dropTable('bulk_sends').execute()
}
