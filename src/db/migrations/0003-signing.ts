import type { Kysely } from 'kysely'

// Signing: what each signer's acts leave behind for the audit trail (when, from which
// address and user agent, through which link), the decline reason, the moment the last signer
// signed (it fences cancellation and expiry while the final PDF is made), the final PDF and the
// audit trail once made, and the actor of each journal event.
export async function up(db: Kysely<unknown>): Promise<void> {
  const submitterColumns = [
    'opened_ip',
    'opened_user_agent',
    'opened_via',
    'signed_ip',
    'signed_user_agent',
    'declined_ip',
    'declined_user_agent',
    'decline_reason',
  ]
  for (const column of submitterColumns) {
    await db.schema.alterTable('submitters').addColumn(column, 'text').execute()
  }
  const submissionColumns = [
    'all_signed_at',
    'declined_at',
    'final_pdf_key',
    'final_pdf_sha256',
    'audit_pdf_key',
    'audit_json_key',
    'finalize_error',
  ]
  for (const column of submissionColumns) {
    await db.schema.alterTable('submissions').addColumn(column, 'text').execute()
  }
  await db.schema.alterTable('events').addColumn('actor_ip', 'text').execute()
  await db.schema.alterTable('events').addColumn('actor_user_agent', 'text').execute()
  // The submitters of a page of submissions (submittersOf): with the scope first, SQLite's planner
  // chose the e-mail index and scanned every submitter of the scope for each list page (found by
  // the soak: a 20-row list went from 0.8 to 7 ms as data grew).
  await db.schema
    .createIndex('submitters_scope_submission')
    .on('submitters')
    .columns(['account_id', 'environment', 'submission_id', 'position'])
    .execute()
  // The expiry sweep looks for active submissions past their expires_at.
  await db.schema
    .createIndex('submissions_expiry')
    .on('submissions')
    .columns(['status', 'expires_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_expiry').execute()
  await db.schema.dropIndex('submitters_scope_submission').execute()
  for (const column of ['actor_ip', 'actor_user_agent']) {
    await db.schema.alterTable('events').dropColumn(column).execute()
  }
}
