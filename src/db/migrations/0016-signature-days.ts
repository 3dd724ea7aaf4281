import { type Kysely, sql } from 'kysely'

// GET /v1/usage and `paraph usage` counted the month's rows of the signature
// ledger, so their cost grew with the account's signatures (20 000 in a month: 980 % of an empty
// database's on SQLite). The daily rollup holds, per account, environment and UTC day, the number
// of ledger rows, in a few slots: the signing transaction adds 1 to the slot its submitter id
// picks, in the transaction that writes the ledger row, so concurrent signatures of one account
// rarely wait on one row lock (PostgreSQL). A month is then at most 31 × slots rows, whatever the
// volume. The ledger stays the record; the rollup is derived from it here, for what it already holds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signature_days')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('signatures', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('signature_days_pk', ['account_id', 'environment', 'day', 'slot'])
    .execute()
  // The operator's report: every account's live month.
  await db.schema
    .createIndex('signature_days_environment_day')
    .on('signature_days')
    .columns(['environment', 'day', 'account_id'])
    .execute()
  await sql`
    insert into signature_days (account_id, environment, day, slot, signatures)
    select account_id, environment, substr(signed_at, 1, 10), 0, count(*)
    from signatures
    group by account_id, environment, substr(signed_at, 1, 10)
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signature_days').execute()
}
