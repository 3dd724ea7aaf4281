import { type Kysely, sql } from 'kysely'
import { emailKey } from '../../lib/email-address.ts'

// Issue #34 item 3, addresses as people write them (docs/api.md#e-mail-addresses): a submitter's and
// a member's address is stored as written (lower-cased, an internationalized domain in Unicode or
// xn-- as given), and `email_key` holds the form every comparison uses — NFC, the domain in its
// ASCII form — so the `email` filter of GET /v1/submitters and a console sign-in find an address by
// either spelling of its domain. The indexes on `email` move to `email_key`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submitters')
    .addColumn('email_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  // Submitters were accepted by an ASCII-only format and stored lower-case: their key is the address.
  await sql`UPDATE submitters SET email_key = email`.execute(db)
  await db.schema
    .createIndex('submitters_email_key_order')
    .on('submitters')
    .columns(['account_id', 'environment', 'email_key', 'created_at', 'id'])
    .execute()
  await db.schema.dropIndex('submitters_email_order').execute()

  await db.schema
    .alterTable('members')
    .addColumn('email_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  // Members were held to a looser pattern (any non-space characters): each key is computed.
  const typed = db as unknown as Kysely<{ members: { id: string; email: string; email_key: string } }>
  for (const member of await typed.selectFrom('members').select(['id', 'email']).execute()) {
    await typed
      .updateTable('members')
      .set({ email_key: emailKey(member.email) })
      .where('id', '=', member.id)
      .execute()
  }
  await db.schema.dropIndex('members_active_email').execute()
  await db.schema.dropIndex('members_email').execute()
  await db.schema
    .createIndex('members_active_email_key')
    .unique()
    .on('members')
    .columns(['account_id', 'email_key'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute()
  await db.schema.createIndex('members_email_key').on('members').column('email_key').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('members_email_key').execute()
  await db.schema.dropIndex('members_active_email_key').execute()
  await db.schema
    .createIndex('members_active_email')
    .unique()
    .on('members')
    .columns(['account_id', 'email'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute()
  await db.schema.createIndex('members_email').on('members').column('email').execute()
  await db.schema.alterTable('members').dropColumn('email_key').execute()
  await db.schema
    .createIndex('submitters_email_order')
    .on('submitters')
    .columns(['account_id', 'environment', 'email', 'created_at', 'id'])
    .execute()
  await db.schema.dropIndex('submitters_email_key_order').execute()
  await db.schema.alterTable('submitters').dropColumn('email_key').execute()
}
