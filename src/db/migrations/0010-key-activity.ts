import type { Kysely } from 'kysely'

// docs/deprecations.md#what-is-recorded: what each API key did, for its owner and for deprecation
// notices. `last_used_at` is truncated to the minute (written at most once a minute per key); one
// row per key, route and UTC day it was called; one row per account and deprecated route noticed,
// so `paraph deprecations notify` never mails the same account twice about one route.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute()

  await db.schema
    .createTable('key_route_days')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('key_route_days_pk', ['key_id', 'route', 'day'])
    .execute()
  // "Which live keys called route R since day D": the notify command's one query per deprecated route.
  await db.schema
    .createIndex('key_route_days_route_day')
    .on('key_route_days')
    .columns(['route', 'environment', 'day'])
    .execute()

  await db.schema
    .createTable('deprecation_notices')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('sent_to', 'text', (c) => c.notNull())
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('deprecation_notices_pk', ['account_id', 'route'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deprecation_notices').execute()
  await db.schema.dropTable('key_route_days').execute()
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute()
}
