// Keyset pagination on (created_at, id), newest first: the WHERE that continues after a position.
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely'
import type { Position } from '../http/pagination.ts'

export function after(position: Position) {
  // biome-ignore lint/suspicious/noExplicitAny: every paginated table has created_at and id
  return (eb: ExpressionBuilder<any, any>) =>
    eb.or([
      eb('created_at', '<', position.createdAt),
      eb.and([eb('created_at', '=', position.createdAt), eb('id', '<', position.id)]),
    ])
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
