// Deliveries (`dlv_`): one per event and endpoint, the body frozen at creation, claimed for an
// attempt with a lease and the attempt number as fence (docs/security.md#crash-safe-jobs):
// the record of attempt n applies only while the row still says n, so a sender whose lease lapsed
// cannot overwrite a newer attempt, and a crash between the send and its record costs one repeat.
import { type Position, page } from '../db/keyset.ts'
import { preparedWrite } from '../db/prepared.ts'
import type { DeliveryState, Executor, Scope, Tx, WebhookDeliveriesTable } from '../db/tables.ts'
import { toIso } from '../lib/clock.ts'

export type NewDelivery = Pick<
  WebhookDeliveriesTable,
  | 'id'
  | 'account_id'
  | 'environment'
  | 'endpoint_id'
  | 'event_id'
  | 'event_type'
  | 'event_created_at'
  | 'body'
>

/** The row of a new delivery, due at once. */
export function pendingDelivery(delivery: NewDelivery, at: string): WebhookDeliveriesTable {
  return {
    ...delivery,
    state: 'pending',
    attempts: 0,
    next_attempt_at: at,
    locked_until: null,
    last_status: null,
    last_error: null,
    created_at: at,
    updated_at: at,
    delivered_at: null,
    test: 0,
  }
}

/**
 * A test event's delivery (POST …/test, docs/api.md#testing-an-endpoint), inserted already claimed
 * for its first attempt (attempt 1, leased until `leaseUntil`): the route sends it at once, and it
 * then lists and redelivers like any other.
 */
export async function insertTestDelivery(
  db: Executor,
  delivery: NewDelivery,
  at: string,
  leaseUntil: string,
): Promise<WebhookDeliveriesTable> {
  const row: WebhookDeliveriesTable = {
    ...pendingDelivery(delivery, at),
    attempts: 1,
    locked_until: leaseUntil,
    test: 1,
  }
  await db.insertInto('webhook_deliveries').values(row).execute()
  return row
}

/**
 * Inserts the deliveries of one event in one statement, leaving out each endpoint that already has
 * a delivery of it (events.publish ran before); returns how many were new.
 */
export async function insertDeliveries(tx: Tx, deliveries: NewDelivery[], at: string): Promise<number> {
  if (deliveries.length === 0) return 0
  const result = await tx
    .insertInto('webhook_deliveries')
    .values(deliveries.map((delivery) => pendingDelivery(delivery, at)))
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0)
}

/** Pending deliveries of an endpoint become `dropped` with the reason; returns how many. */
export async function dropPendingDeliveries(tx: Tx, endpointId: string, reason: string, at: string) {
  const result = await tx
    .updateTable('webhook_deliveries')
    .set({ state: 'dropped', last_error: reason, locked_until: null, updated_at: at })
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export interface Candidate {
  id: string
  endpoint_id: string
  attempts: number
}

/**
 * Due deliveries, oldest due first, leaving out endpoints that already have all the attempts in
 * flight they may: a dead endpoint's backlog never hides another endpoint's deliveries.
 */
export async function dueDeliveries(
  db: Executor,
  now: Date,
  busyEndpoints: string[],
  limit: number,
): Promise<Candidate[]> {
  const at = toIso(now)
  let query = db
    .selectFrom('webhook_deliveries')
    .select(['id', 'endpoint_id', 'attempts'])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
  if (busyEndpoints.length > 0) query = query.where('endpoint_id', 'not in', busyEndpoints)
  return query.orderBy('next_attempt_at').limit(limit).execute()
}

/**
 * Takes the next attempt of each of `ids` in one statement — those another sender has not taken
 * meanwhile (the lease condition is evaluated row by row as the UPDATE runs) — and returns their
 * rows with the new attempt numbers.
 */
export async function claimDeliveries(db: Executor, ids: string[], now: Date, leaseMs: number) {
  if (ids.length === 0) return []
  const at = toIso(now)
  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      locked_until: toIso(new Date(now.getTime() + leaseMs)),
      updated_at: at,
    }))
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
    .returningAll()
    .execute()
}

/**
 * Hands back claims that were never sent (a dispatcher's queue at shutdown): the lease is lifted
 * and the attempt number the claim took is restored, each fenced by that number, in one
 * transaction.
 */
export async function releaseDeliveries(
  db: Executor,
  claims: Array<{ id: string; attempts: number }>,
  at: string,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const claim of claims)
      await tx
        .updateTable('webhook_deliveries')
        .set({ attempts: claim.attempts - 1, locked_until: null, updated_at: at })
        .where('id', '=', claim.id)
        .where('attempts', '=', claim.attempts)
        .where('state', '=', 'pending')
        .execute()
  })
}

/** Takes the next attempt of `candidate`, unless another sender took it first; its row, with the new attempt number. */
export async function claimDelivery(db: Executor, candidate: Candidate, now: Date, leaseMs: number) {
  const at = toIso(now)
  return db
    .updateTable('webhook_deliveries')
    .set({
      attempts: candidate.attempts + 1,
      locked_until: toIso(new Date(now.getTime() + leaseMs)),
      updated_at: at,
    })
    .where('id', '=', candidate.id)
    .where('attempts', '=', candidate.attempts)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
    .returningAll()
    .executeTakeFirst()
}

export interface AttemptRecord {
  number: number
  endpointId: string
  startedAt: string
  durationMs: number
  status: number | null
  error: string | null
  succeeded: boolean
  responseBody: string
}

const insertAttemptRow = preparedWrite(
  (
    db: Executor,
    deliveryId: string,
    number: number,
    endpointId: string,
    startedAt: string,
    durationMs: number,
    status: number | null,
    error: string | null,
    succeeded: number,
    responseBody: string,
  ) =>
    db
      .insertInto('webhook_attempts')
      .values({
        delivery_id: deliveryId,
        number,
        endpoint_id: endpointId,
        started_at: startedAt,
        duration_ms: durationMs,
        status,
        error,
        succeeded,
        response_body: responseBody,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'number']).doNothing()),
)

export async function insertAttempt(tx: Tx, deliveryId: string, attempt: AttemptRecord): Promise<void> {
  await insertAttemptRow(
    tx,
    deliveryId,
    attempt.number,
    attempt.endpointId,
    attempt.startedAt,
    attempt.durationMs,
    attempt.status,
    attempt.error,
    attempt.succeeded ? 1 : 0,
    attempt.responseBody,
  )
}

/** The fenced UPDATE of settleDelivery, one compiled shape per outcome. */
function settleStatement(state: DeliveryState, withNextAttempt: boolean) {
  return preparedWrite(
    (
      db: Executor,
      at: string,
      lastStatus: number | null,
      lastError: string | null,
      nextAttemptAt: string,
      id: string,
      attempt: number,
    ) =>
      db
        .updateTable('webhook_deliveries')
        .set({
          state,
          last_status: lastStatus,
          last_error: lastError,
          locked_until: null,
          updated_at: at,
          ...(withNextAttempt ? { next_attempt_at: nextAttemptAt } : { delivered_at: nextAttemptAt }),
        })
        .where('id', '=', id)
        .where('attempts', '=', attempt)
        .where('state', '=', 'pending'),
  )
}

const SETTLE = {
  delivered: settleStatement('delivered', false),
  pending: settleStatement('pending', true),
  failed: settleStatement('failed', false),
  dropped: settleStatement('dropped', false),
}

/** Applies the outcome of attempt `attempt`; false when the row moved on (dropped, or a newer attempt). */
export async function settleDelivery(
  tx: Tx,
  id: string,
  attempt: number,
  set: {
    state: DeliveryState
    next_attempt_at?: string
    last_status: number | null
    last_error: string | null
  },
  at: string,
): Promise<boolean> {
  const { state } = set
  // delivered_at: the time for a delivery, unchanged (null) otherwise; next_attempt_at when pending.
  const slot = state === 'pending' ? (set.next_attempt_at ?? at) : state === 'delivered' ? at : null
  const changed = await SETTLE[state](tx, at, set.last_status, set.last_error, slot as string, id, attempt)
  return changed === 1
}

export interface DeliveryFilters {
  status?: DeliveryState
}

/** Deliveries of one endpoint, newest first (keyset), scoped in the WHERE. */
export async function listDeliveries(
  db: Executor,
  scope: Scope,
  endpointId: string,
  filters: DeliveryFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('endpoint_id', '=', endpointId)
  if (filters.status) query = query.where('state', '=', filters.status)
  return page(query, after, limit).execute()
}

export async function findDelivery(db: Executor, scope: Scope, endpointId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('endpoint_id', '=', endpointId)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
}

/** Every attempt of these deliveries, in order. */
export async function attemptsOf(db: Executor, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return []
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('number')
    .execute()
}

/**
 * Claims a delivery for a retry asked for by the client, whatever its state (a failed or dropped
 * one is pending again): the next attempt number, with a lease. Undefined while an attempt is in
 * flight.
 */
export async function claimForRetry(
  db: Executor,
  delivery: WebhookDeliveriesTable,
  now: Date,
  leaseMs: number,
) {
  const at = toIso(now)
  return db
    .updateTable('webhook_deliveries')
    .set({
      state: 'pending',
      attempts: delivery.attempts + 1,
      next_attempt_at: at,
      locked_until: toIso(new Date(now.getTime() + leaseMs)),
      updated_at: at,
    })
    .where('id', '=', delivery.id)
    .where('attempts', '=', delivery.attempts)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
    .returningAll()
    .executeTakeFirst()
}
