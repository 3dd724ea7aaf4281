import type { Kysely } from 'kysely'

// Issue #34 item 1, reminders (docs/api.md#reminders). The submission keeps its effective policy
// (all three null: no reminders); each signer keeps how many reminders went out (automatic and
// manual), how many of them were automatic (what `max_count` bounds and what the reminder job is
// keyed on, so a second run of one job sends nothing), when the next automatic one is due, and
// when the last one of either kind went out (the one-per-hour limit of the remind route).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('reminder_first_hours', 'integer').execute()
  await db.schema.alterTable('submissions').addColumn('reminder_every_hours', 'integer').execute()
  await db.schema.alterTable('submissions').addColumn('reminder_max_count', 'integer').execute()
  await db.schema
    .alterTable('submitters')
    .addColumn('reminders_sent', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('submitters')
    .addColumn('auto_reminders_sent', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('submitters').addColumn('next_reminder_at', 'text').execute()
  await db.schema.alterTable('submitters').addColumn('last_reminded_at', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['last_reminded_at', 'next_reminder_at', 'auto_reminders_sent', 'reminders_sent'])
    await db.schema.alterTable('submitters').dropColumn(column).execute()
  for (const column of ['reminder_max_count', 'reminder_every_hours', 'reminder_first_hours'])
    await db.schema.alterTable('submissions').dropColumn(column).execute()
}
