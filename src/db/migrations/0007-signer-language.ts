import type { Kysely } from 'kysely'

// Issue #21 item 6: the audit trail quotes the consent in the language the signer saw. The signing
// page sends its language with the signature (or the refusal); the submitter keeps it. Null for
// acts recorded before this column, and for pre-signed submitters, who saw no page.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submitters').addColumn('page_language', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submitters').dropColumn('page_language').execute()
}
