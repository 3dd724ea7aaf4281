// Issue #22 item 4: request logs written off the request. The response hook only pushes a small
// record into memory; every FLUSH_MS (or as soon as MAX_BATCH_ROWS are waiting) the records are
// written as one row per account and environment (request_log_batches, migration 0011): a row per
// request cost the database an insert and two index entries on every request, a quarter of a
// `GET /v1/health`. A crash loses what was not yet written: at most the last FLUSH_MS of requests
// (docs/request-logs.md). Shutdown flushes (deps.close).
import type { AuthenticatedKey } from '../accounts/account-store.ts'
import type { Engine } from '../db/dialect.ts'
import type { Db, RequestLogBatchesTable } from '../db/tables.ts'
import type { ApiError } from '../errors.ts'
import { BASE62 } from '../lib/ids.ts'

/** How long a record may wait in memory before it is written. */
export const FLUSH_MS = 250
/** Records written at once at most; reaching it starts a write at once. */
export const MAX_BATCH_ROWS = 2048
/** Records kept while the database refuses them; beyond, the oldest are dropped (and counted). */
export const MAX_BUFFERED_ROWS = 20_000
/** A client's User-Agent is kept up to this length. */
const MAX_USER_AGENT = 512

/** What the response hook knows of a request, kept as is until the write (no work on the request). */
export interface RequestRecord {
  id: string
  scope: AuthenticatedKey
  atMs: number
  method: string
  /** The matched route's Fastify URL, or null for an unknown route. */
  route: string | null
  url: string
  status: number
  error: ApiError | null
  idempotencyKey: string | null
  replayed: boolean
  ms: number
  ip: string
  userAgent: string | undefined
}

export interface WriterLogger {
  warn(fields: Record<string, unknown>, message: string): void
}

const openApiPaths = new Map<string, string>()

/** `/v1/submissions/:id` → `/v1/submissions/{id}`, as the OpenAPI document and the filter write it. */
export function openApiPath(route: string): string {
  let path = openApiPaths.get(route)
  if (path === undefined) {
    path = route.replace(/:([A-Za-z_]+)/g, '{$1}')
    openApiPaths.set(route, path)
  }
  return path
}

/** One request as a batch stores it: an array of these fields, in this order. */
export const RECORD_FIELDS = [
  'id',
  'at_ms',
  'key_id',
  'method',
  'route',
  'path',
  'status',
  'error_code',
  'idempotency_key',
  'replayed',
  'duration_ms',
  'client_ip',
  'user_agent',
  'error',
] as const

/** A stored request: RECORD_FIELDS' values (route in OpenAPI form, error the envelope sent). */
export type StoredRecord = [
  id: string,
  atMs: number,
  keyId: string,
  method: string,
  route: string | null,
  path: string,
  status: number,
  errorCode: string | null,
  idempotencyKey: string | null,
  replayed: 0 | 1,
  durationMs: number,
  clientIp: string,
  userAgent: string | null,
  error: { error: { type: string; code: string; message: string } } | null,
]

function toStored(record: RequestRecord): StoredRecord {
  const queryAt = record.url.indexOf('?')
  const error = record.error
  return [
    record.id,
    record.atMs,
    record.scope.keyId,
    record.method,
    record.route === null ? null : openApiPath(record.route),
    // The query string is not kept: filters may carry personal data (an e-mail address).
    queryAt === -1 ? record.url : record.url.slice(0, queryAt),
    record.status,
    error?.code ?? null,
    record.idempotencyKey,
    record.replayed ? 1 : 0,
    record.ms,
    record.ip,
    record.userAgent === undefined ? null : record.userAgent.slice(0, MAX_USER_AGENT),
    error === null ? null : { error: { type: error.type, code: error.code, message: error.message } },
  ]
}

/**
 * A request id (`req_` + 10 characters of process prefix + 14 of counter, lib/ids.ts
 * requestIdSource) as its prefix and counter; undefined for any other shape.
 */
export function requestIdParts(id: string): { prefix: string; seq: number } | undefined {
  if (!/^req_[0-9A-Za-z]{24}$/.test(id)) return undefined
  let seq = 0
  for (const char of id.slice(14)) seq = seq * 62 + BASE62.indexOf(char)
  return Number.isSafeInteger(seq) ? { prefix: id.slice(4, 14), seq } : undefined
}

/** The batch's request-id range; an empty one (matching no lookup) for ids of another shape. */
function seqRange(low: string, high: string) {
  const [from, to] = [requestIdParts(low), requestIdParts(high)]
  if (!from || !to || from.prefix !== to.prefix) return { id_prefix: '', first_seq: 0, last_seq: -1 }
  return { id_prefix: from.prefix, first_seq: from.seq, last_seq: to.seq }
}

/** The batch rows of some records: one per account and environment. */
export function batchRows(records: readonly RequestRecord[]): RequestLogBatchesTable[] {
  const groups = new Map<string, RequestRecord[]>()
  for (const record of records) {
    const key = `${record.scope.accountId} ${record.scope.environment}`
    let group = groups.get(key)
    if (!group) {
      group = []
      groups.set(key, group)
    }
    group.push(record)
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!
    let [firstMs, lastMs] = [first.atMs, first.atMs]
    // A process's ids differ only in their fixed-width counter, whose digits sort as their values
    // (lib/ids.ts BASE62 is in ASCII order): the smallest and largest ids give the counter range.
    let [lowId, highId] = [first.id, first.id]
    const statuses = new Set<number>()
    const routes = new Set<string>()
    const stored = group.map((record) => {
      firstMs = Math.min(firstMs, record.atMs)
      lastMs = Math.max(lastMs, record.atMs)
      if (record.id < lowId) lowId = record.id
      if (record.id > highId) highId = record.id
      const row = toStored(record)
      statuses.add(row[6])
      routes.add(row[4] ?? '')
      return row
    })
    return {
      id: first.id,
      account_id: first.scope.accountId,
      environment: first.scope.environment,
      first_at: new Date(firstMs).toISOString(),
      last_at: new Date(lastMs).toISOString(),
      ...seqRange(lowId, highId),
      statuses: `,${[...statuses].join(',')},`,
      routes: `|${[...routes].join('|')}|`,
      count: stored.length,
      records: JSON.stringify(stored),
    }
  })
}

export class RequestLogWriter {
  readonly #db: Db
  readonly #logger: WriterLogger
  readonly #enabled: boolean
  #buffer: RequestRecord[] = []
  #timer: NodeJS.Timeout | undefined
  #chain: Promise<void> = Promise.resolve()
  #closed = false
  #queued = false
  #dropped = 0
  constructor(options: { db: Db; engine: Engine; logger: WriterLogger; enabled: boolean }) {
    this.#db = options.db
    this.#logger = options.logger
    this.#enabled = options.enabled
  }

  get enabled(): boolean {
    return this.#enabled
  }

  /** Called from the response hook: O(1), no I/O, no allocation beyond the record itself. */
  record(record: RequestRecord): void {
    if (!this.#enabled || this.#closed) return
    this.#buffer.push(record)
    if (this.#buffer.length >= MAX_BATCH_ROWS) {
      void this.flush()
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), FLUSH_MS)
      this.#timer.unref()
    }
  }

  /** Writes every record buffered so far; resolves once they are in the database (tests call it). */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    // One queued write at a time: it takes everything buffered when it starts, so a record pushed
    // while a write is in flight needs no write of its own (no promise per request under load).
    if (!this.#queued) {
      this.#queued = true
      this.#chain = this.#chain.then(() => {
        this.#queued = false
        return this.#writeBuffered()
      })
    }
    return this.#chain
  }

  /** Flushes and stops recording (shutdown). */
  async close(): Promise<void> {
    await this.flush()
    this.#closed = true
  }

  async #writeBuffered(): Promise<void> {
    while (this.#buffer.length > 0) {
      const records = this.#buffer.splice(0, MAX_BATCH_ROWS)
      try {
        await this.#db.insertInto('request_log_batches').values(batchRows(records)).execute()
      } catch (error) {
        this.#keepForLater(records, error)
        return
      }
    }
  }

  /** The database refused: the records wait for the next flush, within MAX_BUFFERED_ROWS. */
  #keepForLater(records: RequestRecord[], error: unknown): void {
    this.#buffer = records.concat(this.#buffer)
    const excess = this.#buffer.length - MAX_BUFFERED_ROWS
    if (excess > 0) {
      this.#buffer.splice(0, excess)
      this.#dropped += excess
    }
    this.#logger.warn(
      { err: error, waiting: this.#buffer.length, dropped_total: this.#dropped },
      'request logs could not be written; retrying',
    )
    if (!this.#closed && this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), FLUSH_MS * 4)
      this.#timer.unref()
    }
  }
}
