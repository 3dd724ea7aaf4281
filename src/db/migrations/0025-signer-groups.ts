import { type Kysely, sql } from 'kysely'

// Issue #34 item 2, signer groups (docs/api.md#signer-groups): a submitter may be a group of 2 to
// 10 people, any one of whom signs for the role. `submitters.grouped` marks such a submitter (its
// own `email` is '' and answered null until a member signs); `group_members` holds the people, each
// with a signing slug of their own, their address and its comparison key, and their status
// (pending, signed, superseded, declined). `submitter_created_at` repeats the submitter's creation
// time so the `email` filter of GET /v1/submitters reads a member's submitters in list order from
// one index.
//
// A member asks for e-mail codes and saves progress as a signer does, so the two tables keyed by
// the signer gain `member_id` ('' for a signer who is no group) in their primary key. SQLite cannot
// change a primary key in place: both tables are rebuilt, their rows kept.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submitters')
    .addColumn('grouped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('group_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submitter_id', 'text', (c) => c.notNull().references('submitters.id'))
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('signing_slug', 'text', (c) => c.notNull().unique())
    .addColumn('email_2fa_verified_at', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('submitter_created_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('group_members_submitter')
    .on('group_members')
    .columns(['submitter_id', 'position'])
    .execute()
  await db.schema
    .createIndex('group_members_email_key_order')
    .on('group_members')
    .columns(['account_id', 'environment', 'email_key', 'submitter_created_at', 'submitter_id'])
    .execute()
  await rebuildWithMember(db, EMAIL_CODES, true)
  await rebuildWithMember(db, PROGRESS, true)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuildWithMember(db, PROGRESS, false)
  await rebuildWithMember(db, EMAIL_CODES, false)
  await db.schema.dropTable('group_members').execute()
  await db.schema.alterTable('submitters').dropColumn('grouped').execute()
}

interface Rebuilt {
  table: string
  /** Column definitions after `submitter_id` (SQL both engines read alike). */
  columns: string[]
  indexes: Array<{ name: string; column: string }>
}

const EMAIL_CODES: Rebuilt = {
  table: 'email_2fa_codes',
  columns: [
    'account_id text not null',
    'environment text not null',
    'code_hash text not null',
    'sent_to text not null',
    'sent_at text not null',
    'expires_at text not null',
    'wrong_tries integer not null',
    'used_at text',
    `recent_sends text not null default '[]'`,
  ],
  indexes: [],
}

const PROGRESS: Rebuilt = {
  table: 'signing_progress',
  columns: [
    'account_id text not null',
    'environment text not null',
    'submission_id text not null',
    'progress text not null',
    'updated_at text not null',
  ],
  indexes: [{ name: 'signing_progress_submission', column: 'submission_id' }],
}

/** The table again, keyed by (submitter_id, member_id) when `withMember`, else by submitter_id alone. */
async function rebuildWithMember(db: Kysely<unknown>, spec: Rebuilt, withMember: boolean): Promise<void> {
  const next = `${spec.table}_next`
  const names = spec.columns.map((c) => c.split(' ')[0]!)
  const key = withMember
    ? `member_id text not null default '', primary key (submitter_id, member_id)`
    : 'primary key (submitter_id)'
  await sql
    .raw(
      `create table ${next} (submitter_id text not null references submitters (id), ${spec.columns.join(', ')}, ${key})`,
    )
    .execute(db)
  // Going back, a member's row has no place left: only the signers' own rows are kept.
  const kept = ['submitter_id', ...names].join(', ')
  await sql
    .raw(
      `insert into ${next} (${kept}) select ${kept} from ${spec.table}${withMember ? '' : ` where member_id = ''`}`,
    )
    .execute(db)
  await db.schema.dropTable(spec.table).execute()
  await db.schema.alterTable(next).renameTo(spec.table).execute()
  for (const index of spec.indexes) {
    await db.schema.createIndex(index.name).on(spec.table).column(index.column).execute()
  }
}
