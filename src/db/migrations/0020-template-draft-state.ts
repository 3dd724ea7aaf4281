import type { Kysely } from 'kysely'

// Issue #33: the template editor keeps its work on the server as it goes, so leaving the page (Back,
// a link, a closed tab) loses nothing and reopening the editor resumes it. A draft so far held the
// uploaded PDF only (its first fields were answered once, never stored). `state` is the editor's
// work as JSON (the template's name and slug being typed, the fields drawn, where the fields came
// from, the tag report), written by PATCH /console/api/template_drafts/:id; `updated_at` orders a
// member's drafts; `template_id` is set when the draft was saved as a template, so it is no longer
// offered to resume. Drafts made before this migration have no state: they open with no fields.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('template_drafts').addColumn('state', 'text').execute()
  await db.schema.alterTable('template_drafts').addColumn('updated_at', 'text').execute()
  await db.schema.alterTable('template_drafts').addColumn('template_id', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('template_drafts').dropColumn('template_id').execute()
  await db.schema.alterTable('template_drafts').dropColumn('updated_at').execute()
  await db.schema.alterTable('template_drafts').dropColumn('state').execute()
}
