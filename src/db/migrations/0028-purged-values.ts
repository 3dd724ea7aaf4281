import { type Kysely, sql } from 'kysely'

// docs/privacy.md#purge: a purged signer's values are stored as JSON `null` and answered `null` by
// GET /v1/submitters/{id}, like every other personal value of a purged submission; purges made
// under 0027 left `{}`, which read as "nothing filled yet". The purged submissions' signers move to
// `null`; an empty object is all they held, so nothing is lost either way.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE submitters SET "values" = 'null'
    WHERE submission_id IN (SELECT id FROM submissions WHERE purged_at IS NOT NULL)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE submitters SET "values" = '{}' WHERE "values" = 'null'`.execute(db)
}
