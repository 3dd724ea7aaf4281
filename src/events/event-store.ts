// The event journal (docs/api.md#events): appended by lifecycle/ inside the transaction of the
// state change.

import { type Position, page } from '../db/keyset.ts'
import type { Executor, Scope, Tx } from '../db/tables.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import type { EventType } from './event-types.ts'

export interface NewEvent {
  type: EventType
  submissionId?: string | null
  submitterId?: string | null
  data: Record<string, unknown>
  /** The signer's request behind the event, kept for the audit trail. */
  actor?: { ip: string; userAgent: string | null } | null
}

/** Appends one event; only a transaction is accepted, so an event never commits without its change. */
export async function appendEvent(
  tx: Tx,
  deps: { clock: Clock; ids: IdGenerator },
  scope: Scope,
  event: NewEvent,
): Promise<string> {
  const [id] = await appendEvents(tx, deps, scope, [event])
  return id!
}

/** Appends events of one scope in one statement (a batch of purges), in order; answers their ids. */
export async function appendEvents(
  tx: Tx,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  scope: Scope,
  events: NewEvent[],
): Promise<string[]> {
  if (events.length === 0) return []
  const createdAt = toIso(clock.now())
  const rows = events.map((event) => ({
    id: ids.nextSortable('evt'),
    account_id: scope.accountId,
    environment: scope.environment,
    type: event.type,
    submission_id: event.submissionId ?? null,
    submitter_id: event.submitterId ?? null,
    data: JSON.stringify(event.data),
    created_at: createdAt,
    actor_ip: event.actor?.ip ?? null,
    actor_user_agent: event.actor?.userAgent ?? null,
  }))
  await tx.insertInto('events').values(rows).execute()
  return rows.map((row) => row.id)
}

export interface EventFilters {
  type?: string
  submission_id?: string
}

/** Newest first, `limit` rows after `after` (keyset on created_at, id), scoped in the WHERE. */
export async function listEvents(
  db: Executor,
  scope: Scope,
  filters: EventFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
  if (filters.type) query = query.where('type', '=', filters.type)
  if (filters.submission_id) query = query.where('submission_id', '=', filters.submission_id)
  return page(query, after, limit).execute()
}

/** Every event of one submission, oldest first (the audit trail), scoped in the WHERE. */
export async function eventsOfSubmission(db: Executor, scope: Scope, submissionId: string) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('submission_id', '=', submissionId)
    .orderBy('id')
    .execute()
}
