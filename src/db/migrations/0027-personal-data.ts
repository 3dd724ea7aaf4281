import { type Kysely, sql } from 'kysely'

// Issue #36, personal data (docs/privacy.md): retention policies, purge, legal holds, erasures and
// verification of sealed PDFs.
// - `submissions.ended_at`: when it reached a final status (the policy counts from it), backfilled
//   from the stamps; `submissions_retention` finds the ended, unpurged submissions of a scope and
//   status in end order (one range per status a policy names). `purged_at`: set once, by the purge, in the transaction that scrubs the rows.
// - `submissions.audit_pdf_sha256` beside `final_pdf_sha256`, both indexed: POST /v1/verify is a
//   lookup by hash (audit trails sealed before this migration are recognised through their final).
// - `jobs.submission_id`: the submission a job is about (a mail, a reminder, a finalization), so a
//   purge finds its mails (the outbox: rendered bodies) through an index; backfilled from payloads.
// - `retention_policies` per account and environment; `legal_holds` and the submissions each holds;
//   `erasures` with their report, the address kept only as a keyed hash.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('ended_at', 'text').execute()
  await db.schema.alterTable('submissions').addColumn('purged_at', 'text').execute()
  await db.schema.alterTable('submissions').addColumn('audit_pdf_sha256', 'text').execute()
  await sql`UPDATE submissions SET ended_at = COALESCE(completed_at, declined_at, cancelled_at, updated_at)
    WHERE status IN ('completed', 'declined', 'expired', 'cancelled')`.execute(db)
  await db.schema
    .createIndex('submissions_retention')
    .on('submissions')
    .columns(['account_id', 'environment', 'status', 'ended_at', 'id'])
    .where(sql.ref('purged_at'), 'is', null)
    .execute()
  await db.schema
    .createIndex('submissions_final_sha256')
    .on('submissions')
    .columns(['final_pdf_sha256', 'account_id', 'environment'])
    .execute()
  await db.schema
    .createIndex('submissions_audit_sha256')
    .on('submissions')
    .columns(['audit_pdf_sha256', 'account_id', 'environment'])
    .execute()

  await db.schema.alterTable('jobs').addColumn('submission_id', 'text').execute()
  await backfillJobSubmissions(db)
  await db.schema
    .createIndex('jobs_submission')
    .on('jobs')
    .columns(['submission_id', 'state'])
    .where(sql.ref('submission_id'), 'is not', null)
    .execute()

  await db.schema
    .createTable('retention_policies')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('delete_after_days', 'integer')
    .addColumn('applies_to', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('retention_policies_pk', ['account_id', 'environment'])
    .execute()

  await db.schema
    .createTable('legal_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .execute()
  await db.schema
    .createIndex('legal_holds_scope_order')
    .on('legal_holds')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()
  await db.schema
    .createTable('legal_hold_submissions')
    .addColumn('hold_id', 'text', (c) => c.notNull().references('legal_holds.id'))
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('legal_hold_submissions_pk', ['hold_id', 'submission_id'])
    .execute()
  await db.schema
    .createIndex('legal_hold_submissions_submission')
    .on('legal_hold_submissions')
    .columns(['submission_id', 'hold_id'])
    .execute()

  await db.schema
    .createTable('erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('email_hmac', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute()
  await db.schema
    .createIndex('erasures_scope_order')
    .on('erasures')
    .columns(['account_id', 'environment', 'created_at', 'id'])
    .execute()
}

/** Reads job payloads in pages (never the whole table at once) and copies their `submission_id`. */
async function backfillJobSubmissions(db: Kysely<unknown>): Promise<void> {
  const jobs = db as unknown as Kysely<{
    jobs: { id: string; payload: string; submission_id: string | null }
  }>
  let after = ''
  for (;;) {
    const page = await jobs
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('id', '>', after)
      .where('payload', 'like', '%"submission_id"%')
      .orderBy('id')
      .limit(1000)
      .execute()
    if (page.length === 0) return
    for (const job of page) {
      const id = submissionIdOf(job.payload)
      if (id !== null)
        await jobs.updateTable('jobs').set({ submission_id: id }).where('id', '=', job.id).execute()
    }
    after = page[page.length - 1]!.id
  }
}

function submissionIdOf(payload: string): string | null {
  try {
    const value = (JSON.parse(payload) as { submission_id?: unknown }).submission_id
    return typeof value === 'string' ? value : null
  } catch {
    return null
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('erasures_scope_order').execute()
  await db.schema.dropTable('erasures').execute()
  await db.schema.dropIndex('legal_hold_submissions_submission').execute()
  await db.schema.dropTable('legal_hold_submissions').execute()
  await db.schema.dropIndex('legal_holds_scope_order').execute()
  await db.schema.dropTable('legal_holds').execute()
  await db.schema.dropTable('retention_policies').execute()
  await db.schema.dropIndex('jobs_submission').execute()
  await db.schema.alterTable('jobs').dropColumn('submission_id').execute()
  await db.schema.dropIndex('submissions_audit_sha256').execute()
  await db.schema.dropIndex('submissions_final_sha256').execute()
  await db.schema.dropIndex('submissions_retention').execute()
  await db.schema.alterTable('submissions').dropColumn('audit_pdf_sha256').execute()
  await db.schema.alterTable('submissions').dropColumn('purged_at').execute()
  await db.schema.alterTable('submissions').dropColumn('ended_at').execute()
}
