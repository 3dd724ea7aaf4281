// Reads and the purge of the request logs; the writes are request-log-writer.ts's.
// Logs are stored by batch (one row per account, environment and 250 ms): a read finds the batches
// that can hold what it asks for — newest first by their last request, skipping those whose time
// range, statuses, routes or request-id range rule them out — decodes them, keeps the matching
// requests, and reads further batches only while an unread one could still hold a newer match.
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { Position } from '../db/keyset.ts'
import type { Executor, RequestLogBatchesTable, Scope } from '../db/tables.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import { type Clock, toIso } from '../lib/clock.ts'
import { decodeBatch, requestIdParts, type StoredRecord } from './request-log-form.ts'

/** How long a request log is kept. */
export const REQUEST_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000

/** Batches read per query. */
const BATCHES_PER_READ = 16

export interface RequestLogFilters {
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string
  /** The route's OpenAPI path, `/v1/submissions/{id}`. */
  route?: string
  /** An exact method (`POST`), from the route filter's `POST /v1/…` form. */
  method?: string
  /** An exact path, for a concrete path no route answers (route-filter.ts). */
  path?: string
  /** The key (`key_…`) or console member (`mem_…`) that made the request. */
  key_id?: string
  /** `api_key`: requests made with an API key; `console`: those made in the web console. */
  source?: 'api_key' | 'console'
  request_id?: string
  /** ISO 8601 instant, normalised to UTC with milliseconds; requests at or after it. */
  since?: string
}

/** One request log as the list serves it, ordered like every list by (created_at, id). */
export interface RequestLogRow {
  id: string
  created_at: string
  environment: RequestLogBatchesTable['environment']
  key_id: string
  method: string
  route: string | null
  path: string
  status: number
  error_code: string | null
  idempotency_key: string | null
  replayed: boolean
  duration_ms: number
  client_ip: string
  user_agent: string | null
  error: StoredRecord[13]
}

/** A request made with an API key is logged under its key's id, a console request under its member's. */
const SOURCE_PREFIX = { api_key: 'key_', console: 'mem_' } as const

/** LIKE's own characters taken literally (with ESCAPE '\'). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** `404` → [404, 404]; `4xx` → [400, 499]. The query schema admits only these two forms. */
function statusRange(status: string): [number, number] {
  if (status.endsWith('xx')) {
    const hundred = Number(status[0]) * 100
    return [hundred, hundred + 99]
  }
  return [Number(status), Number(status)]
}

/** Newest first: a before b. */
function newerFirst(a: { atMs: number; id: string }, b: { atMs: number; id: string }): number {
  return b.atMs - a.atMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

/**
 * Up to `limit` request logs of the scope newest first, after `after` when given, matching every
 * filter, none older than the retention (a batch purged a little late shows nothing more).
 */
export async function listRequestLogs(
  db: Executor,
  scope: Scope,
  filters: RequestLogFilters,
  after: Position | undefined,
  limit: number,
  nowMs: number,
): Promise<RequestLogRow[]> {
  const oldestMs = Math.max(
    nowMs - REQUEST_LOG_RETENTION_MS,
    filters.since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(filters.since),
  )
  const [low, high] = filters.status === undefined ? [0, 999] : statusRange(filters.status)
  const position = after && { atMs: Date.parse(after.createdAt), id: after.id }
  const wanted = filters.request_id === undefined ? undefined : requestIdParts(filters.request_id)
  if (filters.request_id !== undefined && !wanted) return []
  const matches = (record: StoredRecord) =>
    record[1] >= oldestMs &&
    record[6] >= low &&
    record[6] <= high &&
    (filters.route === undefined || record[4] === filters.route) &&
    (filters.method === undefined || record[3] === filters.method) &&
    (filters.path === undefined || record[5] === filters.path) &&
    (filters.key_id === undefined || record[2] === filters.key_id) &&
    (filters.source === undefined || record[2].startsWith(SOURCE_PREFIX[filters.source])) &&
    (filters.request_id === undefined || record[0] === filters.request_id) &&
    (position === undefined || newerFirst(position, { atMs: record[1], id: record[0] }) < 0)

  let found: StoredRecord[] = []
  let continueAfter: { lastAt: string; id: string } | undefined
  for (;;) {
    let query = db
      .selectFrom('request_log_batches')
      .select(['id', 'first_at', 'last_at', 'id_prefix', 'first_seq', 'records'])
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .where('last_at', '>=', toIso(new Date(Math.max(oldestMs, 0))))
    if (position) query = query.where('first_at', '<=', after!.createdAt)
    if (filters.status !== undefined) {
      const pattern = filters.status.endsWith('xx') ? `%,${filters.status[0]}__,%` : `%,${filters.status},%`
      query = query.where('statuses', 'like', pattern)
    }
    if (filters.route !== undefined) {
      query = query.where(sql<boolean>`routes like ${`%|${literal(filters.route)}|%`} escape '\\'`)
    }
    if (wanted) {
      query = query
        .where('id_prefix', '=', wanted.prefix)
        .where('first_seq', '<=', wanted.seq)
        .where('last_seq', '>=', wanted.seq)
    }
    if (continueAfter) {
      const { lastAt, id } = continueAfter
      query = query.where((eb) =>
        eb.or([eb('last_at', '<', lastAt), eb.and([eb('last_at', '=', lastAt), eb('id', '<', id)])]),
      )
    }
    const batches = await query
      .orderBy('last_at', 'desc')
      .orderBy('id', 'desc')
      .limit(BATCHES_PER_READ)
      .execute()
    for (const batch of batches) {
      for (const record of decodeBatch(batch)) if (matches(record)) found.push(record)
    }
    found.sort((a, b) => newerFirst({ atMs: a[1], id: a[0] }, { atMs: b[1], id: b[0] }))
    found = found.slice(0, limit)
    const last = batches.at(-1)
    if (!last || batches.length < BATCHES_PER_READ) break
    // Every batch not read yet ended at or before the last one read: none holds a newer request
    // than it, so the page is complete once its last request is newer than that.
    if (found.length >= limit && found[limit - 1]![1] > Date.parse(last.last_at)) break
    continueAfter = { lastAt: last.last_at, id: last.id }
  }
  return found.map((record) => toRow(record, scope.environment))
}

function toRow(record: StoredRecord, environment: RequestLogRow['environment']): RequestLogRow {
  const [id, atMs, keyId, method, route, path, status, errorCode, idempotencyKey, replayed] = record
  return {
    id,
    created_at: new Date(atMs).toISOString(),
    environment,
    key_id: keyId,
    method,
    route,
    path,
    status,
    error_code: errorCode,
    idempotency_key: idempotencyKey,
    replayed: replayed === 1,
    duration_ms: record[10],
    client_ip: record[11],
    user_agent: record[12],
    error: record[13],
  }
}

/** Housekeeping: batches whose last request is older than 7 days. Returns how many were removed. */
export async function purgeOldRequestLogs(db: Executor, clock: Clock): Promise<number> {
  const cutoff = toIso(new Date(clock.epochMs() - REQUEST_LOG_RETENTION_MS))
  const result = await db.deleteFrom('request_log_batches').where('last_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Request logs are kept 7 days. */
export const purgeRequestLogsTask = definePeriodicTask({
  name: 'request_logs.purge',
  everyMs: 10 * 60 * 1000,
  run: async (deps: { db: Executor; clock: Clock; logger: FastifyBaseLogger }) => {
    const purged = await purgeOldRequestLogs(deps.db, deps.clock)
    if (purged > 0) deps.logger.info({ purged }, 'request logs older than 7 days purged')
  },
})
