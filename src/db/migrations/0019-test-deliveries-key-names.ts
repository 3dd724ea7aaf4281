import type { Kysely } from 'kysely'

// Issue #33 item 4, the developer pages:
// - a test event is a delivery of its own, listed among the endpoint's deliveries and redeliverable
//   (docs/api.md#testing-an-endpoint): `test` is 1 on its row, 0 on every other;
// - an API key may carry a name of up to 100 characters (docs/api.md#keys), shown in the key
//   lists and the request logs; null for keys made before this column or without one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('test', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('name').execute()
  await db.schema.alterTable('webhook_deliveries').dropColumn('test').execute()
}
