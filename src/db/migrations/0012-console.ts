import { type Kysely, sql } from 'kysely'
import { randomIds } from '../../lib/ids.ts'

// The web console (docs/console.md). Members are the people of an account (one row per
// account and address; removing keeps the row with `removed_at`, so an address may be added again);
// sign-in links and sessions are stored by the SHA-256 of their token only. Sign-in requests are
// counted here (hashed address, client address) so the limits hold across processes without Redis.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .addColumn('removed_at', 'text')
    .execute()
  // One active membership per account and address; removed ones stay for the record.
  await db.schema
    .createIndex('members_active_email')
    .unique()
    .on('members')
    .columns(['account_id', 'email'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute()
  // A sign-in request finds every account of an address.
  await db.schema.createIndex('members_email').on('members').column('email').execute()

  await db.schema
    .createTable('console_sign_in_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('ip', 'text')
    .execute()

  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute()
  // Ending every session of a removed member.
  await db.schema.createIndex('console_sessions_member').on('console_sessions').column('member_id').execute()

  await db.schema
    .createTable('console_sign_in_requests')
    .addColumn('email_hash', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('console_sign_in_requests_email')
    .on('console_sign_in_requests')
    .columns(['email_hash', 'created_at'])
    .execute()
  await db.schema
    .createIndex('console_sign_in_requests_ip')
    .on('console_sign_in_requests')
    .columns(['ip', 'created_at'])
    .execute()

  await backfillOwners(db as Kysely<BackfillTables>)
}

interface BackfillTables {
  accounts: { id: string; owner_email: string | null; created_at: string }
  members: { id: string; account_id: string; email: string; role: string; created_at: string }
}

/** Every account's owner address becomes its first admin. */
async function backfillOwners(db: Kysely<BackfillTables>): Promise<void> {
  const owners = await db
    .selectFrom('accounts')
    .select(['id', 'owner_email', 'created_at'])
    .where('owner_email', 'is not', null)
    .execute()
  for (const owner of owners) {
    await db
      .insertInto('members')
      .values({
        id: randomIds.next('mem'),
        account_id: owner.id,
        email: owner.owner_email!.trim().toLowerCase(),
        role: 'admin',
        created_at: owner.created_at,
      })
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_sign_in_requests').execute()
  await db.schema.dropTable('console_sessions').execute()
  await db.schema.dropTable('console_sign_in_links').execute()
  await db.schema.dropTable('members').execute()
}
