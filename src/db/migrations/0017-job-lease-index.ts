import { type Kysely, sql } from 'kysely'

// Issue #32 item 2: the claim (jobs/job-store.ts claimJob) was one statement, "pending and due, or
// running with a lapsed lease, oldest run_at first". Each engine answered it by reading every due
// pending row and every running row through jobs_due (state, run_at) and sorting them: cheap while
// the queue is short, but a backlog of due jobs (the reminders of a Monday 9:00) was read and sorted
// again at every claim (100 000 due: 18 ms a claim on SQLite, 71 ms on PostgreSQL, against 0.1 and
// 5 ms for the two statements below, on a 2-core machine). The claim is now two statements, each
// read in the order of an index and stopped at its first row: the due pending jobs through
// jobs_due, which already skips the jobs scheduled for later; the lapsed leases through this
// partial index, which holds only the running jobs (one per busy worker), no done, pending or dead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('jobs_lease')
    .on('jobs')
    .column('locked_until')
    .where(sql.ref('state'), '=', 'running')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_lease').execute()
}
