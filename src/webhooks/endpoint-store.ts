// Webhook endpoints: scoped queries (the scope in the WHERE), and the few the delivery machinery
// runs for an endpoint named by its own rows.
import { type Position, page } from '../db/keyset.ts'
import { preparedWrite } from '../db/prepared.ts'
import type { Executor, Scope, Tx, WebhookEndpointsTable } from '../db/tables.ts'
import type { afterSuccess, HealthColumns } from './endpoint-health.ts'

export async function insertEndpoint(
  tx: Tx,
  scope: Scope,
  row: Pick<WebhookEndpointsTable, 'id' | 'url' | 'events' | 'secret_sealed' | 'created_at'>,
): Promise<WebhookEndpointsTable> {
  return tx
    .insertInto('webhook_endpoints')
    .values({
      ...row,
      account_id: scope.accountId,
      environment: scope.environment,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      consecutive_failures: 0,
      failing: 0,
      failing_since: null,
      disabled_at: null,
      last_success_at: null,
      last_success_status: null,
      last_failure_at: null,
      last_failure_reason: null,
      updated_at: row.created_at,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findEndpoint(db: Executor, scope: Scope, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
}

/** The endpoint row locked until the transaction ends (health updates, deletion, the limit). */
export async function lockEndpoint(tx: Tx, id: string) {
  return tx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Serialises endpoint creations of one account (a row lock on PostgreSQL; SQLite transactions
 * already write one at a time), so two at once cannot both pass the limit.
 */
export async function lockAccount(tx: Tx, scope: Scope): Promise<void> {
  await tx
    .updateTable('accounts')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', scope.accountId)
    .execute()
}

export async function countActiveEndpoints(db: Executor, scope: Scope): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function listEndpoints(db: Executor, scope: Scope, after: Position | undefined, limit: number) {
  const query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
  return page(query, after, limit).execute()
}

export async function deactivateEndpoint(tx: Tx, scope: Scope, id: string, at: string) {
  return tx
    .updateTable('webhook_endpoints')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

export async function updateHealth(tx: Tx, id: string, set: Partial<HealthColumns>, at: string) {
  return tx
    .updateTable('webhook_endpoints')
    .set({ ...set, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

const successStatement = preparedWrite(
  (
    db: Executor,
    consecutiveFailures: number,
    failing: number,
    failingSince: string | null,
    lastSuccessAt: string | null,
    lastSuccessStatus: number | null,
    at: string,
    id: string,
  ) =>
    db
      .updateTable('webhook_endpoints')
      .set({
        consecutive_failures: consecutiveFailures,
        failing,
        failing_since: failingSince,
        last_success_at: lastSuccessAt,
        last_success_status: lastSuccessStatus,
        updated_at: at,
      })
      .where('id', '=', id),
)

/** The health a success leaves (endpoint-health afterSuccess), in one compiled UPDATE: the hot path. */
export async function recordSuccessHealth(
  tx: Tx,
  id: string,
  set: ReturnType<typeof afterSuccess>['set'],
  at: string,
): Promise<void> {
  await successStatement(
    tx,
    set.consecutive_failures ?? 0,
    set.failing ?? 0,
    set.failing_since ?? null,
    set.last_success_at ?? at,
    set.last_success_status ?? null,
    at,
    id,
  )
}

/** Active endpoints of the scope subscribed to `type` (events.publish): not deleted, not disabled. */
export async function subscribedEndpoints(db: Executor, scope: Scope, type: string) {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('deleted_at', 'is', null)
    .where('disabled_at', 'is', null)
    .execute()
  return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(type)).map((row) => row.id)
}

/** Failing endpoints 7 days into their run of failures (the sweep disables them). */
export async function endpointsFailingSince(db: Executor, before: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('failing', '=', 1)
    .where('disabled_at', 'is', null)
    .where('deleted_at', 'is', null)
    .where('failing_since', '<=', before)
    .execute()
}

/** Endpoints by id, whatever their scope (the dispatcher, for the deliveries it claimed). */
export async function endpointsByIds(
  db: Executor,
  ids: string[],
): Promise<Map<string, WebhookEndpointsTable>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, row]))
}
