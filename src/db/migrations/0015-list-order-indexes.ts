import type { Kysely } from 'kysely'

// Every filtered list (docs/api.md#lists-and-filters) gets an index that ends in the list's order
// (created_at, id), so a page is read from the index in order and stops after `limit + 1` rows
// whatever the table holds. Before, a filter on status or type was checked row by row along the
// scope's history (a rare status walked the whole account), and a filter on template or e-mail read
// every matching row and sorted them; SQLite even chose submissions_expiry (status, expires_at) for
// the status filter, sorting that status's rows of every account. GET /v1/templates skips the
// internal template of every from_pdf submission: it walked them all to find the few listed ones.
// The two indexes replaced here are prefixes of their successors.
const ORDERED: Array<[name: string, table: string, filter: string]> = [
  ['submissions_status_order', 'submissions', 'status'],
  ['submissions_template_order', 'submissions', 'template_id'],
  ['submitters_status_order', 'submitters', 'status'],
  ['submitters_email_order', 'submitters', 'email'],
  ['events_type_order', 'events', 'type'],
  ['templates_listed_order', 'templates', 'internal'],
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, filter] of ORDERED) {
    await db.schema
      .createIndex(name)
      .on(table)
      .columns(['account_id', 'environment', filter, 'created_at', 'id'])
      .execute()
  }
  await db.schema.dropIndex('submissions_template').execute()
  await db.schema.dropIndex('submitters_email').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('submissions_template')
    .on('submissions')
    .columns(['account_id', 'environment', 'template_id'])
    .execute()
  await db.schema
    .createIndex('submitters_email')
    .on('submitters')
    .columns(['account_id', 'environment', 'email'])
    .execute()
  for (const [name] of ORDERED) await db.schema.dropIndex(name).execute()
}
