// docs/api.md#pagination: opaque cursors clients cannot build, decode or edit. A cursor is the
// keyset position (created_at, id) of the last row served plus the list it belongs to, sealed with
// AES-GCM under a key derived from PARAPH_SECRET. A cursor from another list, account, environment
// or filter set is refused like a forged one: 422 invalid_pagination.
import type { Position } from '../db/keyset.ts'
import type { Scope } from '../db/tables.ts'
import { fieldError } from '../errors.ts'
import { canonicalJson, seal, sha256Hex, unseal } from '../lib/crypto.ts'

export interface ListContext {
  /** The list's operationId. */
  list: string
  scope: Scope
  /** Filters in force; a cursor only continues the same filtered list. */
  filters: Record<string, unknown>
}

function contextHash(context: ListContext): string {
  const { list, scope, filters } = context
  return sha256Hex(canonicalJson([list, scope.accountId, scope.environment, filters])).slice(0, 32)
}

export function encodeCursor(key: Buffer, position: Position, context: ListContext): string {
  return seal(key, JSON.stringify({ c: contextHash(context), t: position.createdAt, i: position.id }))
}

/** The position after which the next page starts, or undefined for the first page. */
export function decodeCursor(
  key: Buffer,
  cursor: string | undefined,
  context: ListContext,
): Position | undefined {
  if (cursor === undefined) return undefined
  const text = unseal(key, cursor)
  if (text === null) {
    throw fieldError(
      'invalid_pagination',
      'cursor',
      'unreadable; pass the `next_cursor` of the previous page unchanged.',
    )
  }
  const parsed = JSON.parse(text) as { c: string; t: string; i: string }
  if (parsed.c !== contextHash(context)) {
    throw fieldError(
      'invalid_pagination',
      'cursor',
      'belongs to another list or other filters; repeat the same filters or start without a cursor.',
    )
  }
  return { createdAt: parsed.t, id: parsed.i }
}

export interface Page<T> {
  data: T[]
  has_more: boolean
  next_cursor: string | null
}

/**
 * Builds a page from `limit + 1` rows fetched in (created_at, id) descending order: the extra row only
 * says whether more exist.
 */
export function toPage<Row extends { created_at: string; id: string }, T>(
  key: Buffer,
  rows: Row[],
  limit: number,
  context: ListContext,
  toApi: (row: Row) => T,
): Page<T> {
  const hasMore = rows.length > limit
  const served = hasMore ? rows.slice(0, limit) : rows
  const last = served.at(-1)
  return {
    data: served.map(toApi),
    has_more: hasMore,
    next_cursor:
      hasMore && last ? encodeCursor(key, { createdAt: last.created_at, id: last.id }, context) : null,
  }
}
