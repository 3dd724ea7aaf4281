import type { Kysely } from 'kysely'

// The console's "Resend request". One row per resend, kept: the limits (one per
// signer in 5 minutes, five in 24 hours) are counted here, so every API process sees the same
// counts, and the rows say which member asked again and when.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_request_resends')
    .addColumn('submitter_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('signing_request_resends_pk', ['submitter_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_request_resends').execute()
}
