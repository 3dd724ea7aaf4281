// Reads and the purge of request_logs (issue #22 item 4); the writes are request-log-writer.ts's.
// Every filter reads the one index (account, environment, created_at, id) newest first and stops at
// the page's end: cheap when matches are frequent, a longer scan for a rare status or route.
import { page } from '../db/keyset.ts'
import type { Executor, Scope } from '../db/tables.ts'
import type { Position } from '../http/pagination.ts'
import { type Clock, toIso } from '../lib/clock.ts'

/** How long a request log is kept. */
export const REQUEST_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000

export interface RequestLogFilters {
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string
  /** The route's OpenAPI path, `/v1/submissions/{id}`. */
  route?: string
  request_id?: string
  /** ISO 8601 instant, normalised to UTC with milliseconds; rows at or after it. */
  since?: string
}

export async function listRequestLogs(
  db: Executor,
  scope: Scope,
  filters: RequestLogFilters,
  after: Position | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('request_logs')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
  if (filters.status !== undefined) {
    const [low, high] = statusRange(filters.status)
    query =
      low === high
        ? query.where('status', '=', low)
        : query.where('status', '>=', low).where('status', '<=', high)
  }
  if (filters.route !== undefined) query = query.where('route', '=', filters.route)
  if (filters.request_id !== undefined) query = query.where('id', '=', filters.request_id)
  if (filters.since !== undefined) query = query.where('created_at', '>=', filters.since)
  return page(query, after, limit).execute()
}

/** `404` → [404, 404]; `4xx` → [400, 499]. The query schema admits only these two forms. */
function statusRange(status: string): [number, number] {
  if (status.endsWith('xx')) {
    const hundred = Number(status[0]) * 100
    return [hundred, hundred + 99]
  }
  return [Number(status), Number(status)]
}

/** Housekeeping: rows older than 7 days. Returns how many were removed. */
export async function purgeOldRequestLogs(db: Executor, clock: Clock): Promise<number> {
  const cutoff = toIso(new Date(clock.epochMs() - REQUEST_LOG_RETENTION_MS))
  const result = await db.deleteFrom('request_logs').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}
