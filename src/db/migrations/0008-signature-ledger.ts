import type { Kysely } from 'kysely'

// docs/usage.md#what-counts: the signature ledger. One row per submitter that became
// `signed` or `pre_signed`, written in the transaction of that move. The unique key on
// submitter_id makes a second row for the same submitter impossible (not merely checked). The
// index answers a month of one account and environment (GET /v1/usage, `paraph usage`) from the
// index alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signatures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('submitter_id', 'text', (c) => c.notNull().unique())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('signatures_scope_time')
    .on('signatures')
    .columns(['account_id', 'environment', 'signed_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signatures').execute()
}
