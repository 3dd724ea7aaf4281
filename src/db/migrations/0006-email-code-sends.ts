import { type Kysely, sql } from 'kysely'

// `email_2fa/send` in docs/api.md#e-mail-code-2fa: at most 10 codes per signer in 24 hours. The
// code row of each signer keeps when its last codes were sent (a JSON array of at most 10
// timestamps), so the cap is a sliding 24 hours read with the row the send already locks.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('email_2fa_codes')
    .addColumn('recent_sends', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_2fa_codes').dropColumn('recent_sends').execute()
}
