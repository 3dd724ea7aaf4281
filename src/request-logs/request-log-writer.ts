// Request logs written off the request. The response hook hands over a small
// record, taken in at once as numbers (request-log-codec.ts); every FLUSH_MS (or as soon as
// MAX_BATCH_ROWS are waiting) the records are written as one row per account and environment
// (request_log_batches, migration 0011): a row per request cost the database an insert and two
// index entries on every request, a quarter of a `GET /v1/health`. A crash loses what was not yet written: at most the last FLUSH_MS of requests
// (docs/request-logs.md). Shutdown flushes (deps.close).
import type { Db, RequestLogBatchesTable } from '../db/tables.ts'
import { RequestLogBuffer } from './request-log-codec.ts'
import type { RequestRecord } from './request-log-form.ts'

/** How long a record may wait in memory before it is written. */
export const FLUSH_MS = 250
/** Records written at once at most; reaching it starts a write at once. */
export const MAX_BATCH_ROWS = 2048
/** Records kept while the database refuses them; beyond, the oldest are dropped (and counted). */
export const MAX_BUFFERED_ROWS = 20_000
/** Batch rows per INSERT statement (12 parameters each, far below either engine's limit). */
const ROWS_PER_INSERT = 100

export interface WriterLogger {
  warn(fields: Record<string, unknown>, message: string): void
}

export class RequestLogWriter {
  readonly #db: Db
  readonly #logger: WriterLogger
  readonly #enabled: boolean
  readonly #buffer = new RequestLogBuffer()
  /** Batch rows the database refused, oldest first, written before the next ones. */
  #refused: RequestLogBatchesTable[] = []
  #timer: NodeJS.Timeout | undefined
  #chain: Promise<void> = Promise.resolve()
  #closed = false
  #queued = false
  #dropped = 0
  constructor(options: { db: Db; logger: WriterLogger; enabled: boolean }) {
    this.#db = options.db
    this.#logger = options.logger
    this.#enabled = options.enabled
  }

  get enabled(): boolean {
    return this.#enabled
  }

  /**
   * Called from the response hook: O(1), no I/O; the record is taken in as numbers at once
   * (request-log-codec.ts), so it dies young instead of waiting on the heap for the write.
   */
  record(record: RequestRecord): void {
    if (!this.#enabled || this.#closed) return
    this.#buffer.add(record)
    if (this.#buffer.count >= MAX_BATCH_ROWS) {
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
    const rows = this.#refused.concat(this.#buffer.drain())
    this.#refused = []
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      try {
        await this.#db
          .insertInto('request_log_batches')
          .values(rows.slice(i, i + ROWS_PER_INSERT))
          .execute()
      } catch (error) {
        this.#keepForLater(rows.slice(i), error)
        return
      }
    }
  }

  /** The database refused: the rows wait for the next flush, within MAX_BUFFERED_ROWS records. */
  #keepForLater(rows: RequestLogBatchesTable[], error: unknown): void {
    let waiting = rows.reduce((sum, row) => sum + row.count, 0)
    while (waiting > MAX_BUFFERED_ROWS && rows.length > 1) {
      const oldest = rows.shift()!
      waiting -= oldest.count
      this.#dropped += oldest.count
    }
    this.#refused = rows
    this.#logger.warn(
      { err: error, waiting, dropped_total: this.#dropped },
      'request logs could not be written; retrying',
    )
    if (!this.#closed && this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), FLUSH_MS * 4)
      this.#timer.unref()
    }
  }
}
