import type { Kysely } from 'kysely'

// E-mail 2FA (docs/api.md#e-mail-code-2fa `email_2fa/send` and `email_2fa/verify`): the one live code
// of each signer — only its HMAC is kept, with the address it was sent to, when it was sent and
// lapses, how many wrong tries it took and when it was used — and, on the submitter, when a code was
// last verified (the audit trail's "2FA verified at").
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_2fa_codes')
    .addColumn('submitter_id', 'text', (c) => c.primaryKey().references('submitters.id'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('sent_to', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('wrong_tries', 'integer', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.alterTable('submitters').addColumn('email_2fa_verified_at', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submitters').dropColumn('email_2fa_verified_at').execute()
  await db.schema.dropTable('email_2fa_codes').execute()
}
