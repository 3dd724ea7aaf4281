// Keyset pagination on (created_at, id), newest first: the WHERE that continues after a position.
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely'

/** Where a page ends: the (created_at, id) of its last row. http/pagination.ts seals it in a cursor. */
export interface Position {
  createdAt: string
  id: string
}

export function after(position: Position) {
  // A row-value comparison rather than `created_at < ? or (created_at = ? and id < ?)`: both engines
  // seek the (…, created_at, id) index to it, where the OR made SQLite read every older row of the
  // filter and sort them (MULTI-INDEX OR) and PostgreSQL walk every newer row first.
  // biome-ignore lint/suspicious/noExplicitAny: every paginated table has created_at and id
  return (eb: ExpressionBuilder<any, any>) =>
    eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(position.createdAt, position.id))
}

/** One page newest first: the rows after `position` (if any), `limit` of them. */
// biome-ignore lint/suspicious/noExplicitAny: every paginated table has created_at and id
export function page<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  position: Position | undefined,
  limit: number,
): Q {
  const continued = position ? query.where(after(position)) : query
  return continued.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit) as Q
}
