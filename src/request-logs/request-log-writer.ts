// Issue #22 item 4: request logs written off the request. The response hook only pushes a small
// record into memory; every FLUSH_MS (or as soon as MAX_BATCH_ROWS are waiting) the records are
// written together in one transaction of multi-row INSERTs. A crash loses what was not yet written:
// at most the last FLUSH_MS of requests (docs/request-logs.md). Shutdown flushes (deps.close).
import { CompiledQuery } from 'kysely'
import type { AuthenticatedKey } from '../accounts/account-store.ts'
import { type Engine, jsonRowsInsert } from '../db/dialect.ts'
import type { Db, RequestLogsTable } from '../db/tables.ts'
import type { ApiError } from '../errors.ts'

/** How long a record may wait in memory before it is written. */
export const FLUSH_MS = 250
/** Records written at once at most; reaching it starts a write at once. */
export const MAX_BATCH_ROWS = 512
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

/** The last instant written and its text: under load many records share a millisecond. */
let lastMs = Number.NaN
let lastIso = ''
function isoOf(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

function toRow(record: RequestRecord): RequestLogsTable {
  const queryAt = record.url.indexOf('?')
  const error = record.error
  return {
    id: record.id,
    account_id: record.scope.accountId,
    environment: record.scope.environment,
    key_id: record.scope.keyId,
    created_at: isoOf(record.atMs),
    method: record.method,
    route: record.route === null ? null : openApiPath(record.route),
    // The query string is not kept: filters may carry personal data (an e-mail address).
    path: queryAt === -1 ? record.url : record.url.slice(0, queryAt),
    status: record.status,
    error_code: error?.code ?? null,
    idempotency_key: record.idempotencyKey,
    replayed: record.replayed ? 1 : 0,
    duration_ms: record.ms,
    client_ip: record.ip,
    user_agent: record.userAgent === undefined ? null : record.userAgent.slice(0, MAX_USER_AGENT),
    error:
      error === null
        ? null
        : JSON.stringify({ error: { type: error.type, code: error.code, message: error.message } }),
  }
}

const COLUMNS = [
  'id',
  'account_id',
  'environment',
  'key_id',
  'created_at',
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
] as const satisfies ReadonlyArray<keyof RequestLogsTable>

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
  /** INSERT text per row count (powers of two only, so a handful), compiled once by Kysely. */
  readonly #inserts = new Map<number, string>()

  /** PostgreSQL's one-parameter INSERT of a whole batch (db/dialect.ts); undefined on SQLite. */
  readonly #jsonInsert: string | undefined

  constructor(options: { db: Db; engine: Engine; logger: WriterLogger; enabled: boolean }) {
    this.#db = options.db
    this.#jsonInsert = jsonRowsInsert(options.engine, 'request_logs', COLUMNS)
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
        await this.#write(records.map(toRow))
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

  /**
   * PostgreSQL: one INSERT of the whole batch as JSON. SQLite: one transaction of multi-row INSERTs,
   * sized in powers of two so their text (and prepared statement) is reused.
   */
  async #write(rows: RequestLogsTable[]): Promise<void> {
    const jsonInsert = this.#jsonInsert
    if (jsonInsert !== undefined) {
      await this.#db.executeQuery(CompiledQuery.raw(jsonInsert, [JSON.stringify(rows)]))
      return
    }
    await this.#db.transaction().execute(async (tx) => {
      let start = 0
      while (start < rows.length) {
        const size = 2 ** Math.floor(Math.log2(rows.length - start))
        const parameters: unknown[] = []
        for (let i = start; i < start + size; i++) {
          const row = rows[i]!
          for (const column of COLUMNS) parameters.push(row[column])
        }
        await tx.executeQuery(CompiledQuery.raw(this.#insertText(size, rows[start]!), parameters))
        start += size
      }
    })
  }

  #insertText(size: number, sample: RequestLogsTable): string {
    let text = this.#inserts.get(size)
    if (text === undefined) {
      // Kysely writes the engine's own placeholders; the values are replaced by each batch's.
      text = this.#db
        .insertInto('request_logs')
        .values(Array.from({ length: size }, () => sample))
        .compile().sql
      this.#inserts.set(size, text)
    }
    return text
  }
}
