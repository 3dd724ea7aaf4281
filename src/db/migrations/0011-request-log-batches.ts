import type { Kysely } from 'kysely'
import * as requestLogs from './0009-request-logs.ts'

// Issue #22 item 4, second form: request logs written as one row per account, environment and
// batch instead of one per request. A row per request cost the database a few microseconds of
// work on every request (an insert and two index entries), a quarter of a `GET /v1/health`; a batch
// row costs that once per 250 ms. `records` holds the batch's requests as one JSON array of
// arrays (request-log-form.ts RECORD_FIELDS; written by column since, form 2); beside it what a
// read needs to find batches without decoding them: the time range, the request-id range (ids
// are a process prefix and a counter, lib/ids.ts requestIdSource), and the statuses and routes
// present.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_logs').execute()
  await db.schema
    .createTable('request_log_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('first_at', 'text', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .addColumn('id_prefix', 'text', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('statuses', 'text', (c) => c.notNull())
    .addColumn('routes', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('records', 'text', (c) => c.notNull())
    .execute()
  // Newest first per account and environment (the list), and a request id's batch (its lookup).
  await db.schema
    .createIndex('request_log_batches_scope_order')
    .on('request_log_batches')
    .columns(['account_id', 'environment', 'last_at', 'id'])
    .execute()
  await db.schema
    .createIndex('request_log_batches_request_ids')
    .on('request_log_batches')
    .columns(['account_id', 'environment', 'id_prefix', 'first_seq'])
    .execute()
  // The purge: batches past 7 days, whatever their account.
  await db.schema
    .createIndex('request_log_batches_last_at')
    .on('request_log_batches')
    .column('last_at')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_log_batches').execute()
  await requestLogs.up(db)
}
