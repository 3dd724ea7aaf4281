import type { Kysely } from 'kysely'

// One row per /v1 request made with a valid key, kept 7 days. The row's id is the
// request's own id (`req_…`, the Request-Id header). No request or response body is kept, except the
// error envelope of a failed request (`error`, JSON text).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('request_logs')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('idempotency_key', 'text')
    .addColumn('replayed', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'double precision', (c) => c.notNull())
    .addColumn('client_ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('error', 'text')
    .execute()
  // Each index is paid on every request (the writes), so there are two: newest first per account and
  // environment (every filter reads it newest first and stops at the page's end), and the purge's.
  // No primary key: a unique index on random request ids cost more per row than the row itself
  // (6 µs of ~10 on SQLite); ids are unique by construction (lib/ids.ts requestIdSource).
  await db.schema
    .createIndex('request_logs_scope_order')
    .on('request_logs')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()
  // The purge: rows past 7 days, whatever their account.
  await db.schema.createIndex('request_logs_created_at').on('request_logs').column('created_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_logs').execute()
}
