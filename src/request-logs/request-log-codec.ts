// Request logs waiting to be written, taken in as numbers and written out as
// batch rows of form 2 (request-log-form.ts): one group per account and environment, one column
// per field, strings kept once per batch.

import type { RequestLogBatchesTable } from '../db/tables.ts'
import type { AuthenticatedKey } from '../http/caller.ts'
import {
  counterOf,
  DIGIT,
  idOf,
  openApiPath,
  type RequestRecord,
  requestIdParts,
  type StoredRecord,
} from './request-log-form.ts'

/** Groups kept for reuse after a write. */
const SPARE_GROUPS = 4
/** A client's User-Agent is kept up to this length. */
const MAX_USER_AGENT = 512

class Column {
  values: Float64Array
  length = 0
  constructor(capacity = 256) {
    this.values = new Float64Array(capacity)
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = value
  }

  get used(): Float64Array {
    return this.values.subarray(0, this.length)
  }

  /** Emptied for the next batch, its memory kept. */
  clear(): void {
    this.length = 0
  }

  /**
   * The column as JSON, each value less `minus` and times `scale`, rounded. Written from 32-bit
   * integers, which V8 turns into text many times faster than doubles, unless a value is beyond
   * them (a batch spanning 24 days of a test clock, say).
   */
  json(minus = 0, scale = 1): string {
    const used = this.used
    let fits = true
    for (let i = 0; i < used.length && fits; i++) {
      const value = (used[i]! - minus) * scale
      fits = value < 2 ** 31 - 1 && value > -(2 ** 31)
    }
    const out = fits ? new Int32Array(used.length) : new Float64Array(used.length)
    for (let i = 0; i < used.length; i++) out[i] = Math.round((used[i]! - minus) * scale)
    return `[${out.join(',')}]`
  }
}

/** A string column: positions in the group's table, remembering the last string for a repeat. */
class StringColumn extends Column {
  #last: string | undefined
  #lastAt = -1
  readonly group: Group
  constructor(group: Group) {
    super()
    this.group = group
  }

  override clear(): void {
    super.clear()
    ;[this.#last, this.#lastAt] = [undefined, -1]
  }

  add(text: string | null | undefined): void {
    if (text == null) {
      this.push(-1)
      return
    }
    // A repeat is common (one key, one method, one address per connection) and often the very
    // same string: compared before any hashing.
    if (text !== this.#last) [this.#last, this.#lastAt] = [text, this.group.at(text)]
    this.push(this.#lastAt)
  }
}

/**
 * The requests of one account and environment waiting to be written, by column. A group is
 * reused batch after batch (start), so its columns' memory is allocated once, not per batch.
 */
class Group {
  readonly strings: string[] = []
  readonly positions = new Map<string, number>()
  /** The request id's counter, or -1 - the id's position in strings when it has another shape. */
  readonly id = new Column()
  readonly ms = new Column()
  readonly key = new StringColumn(this)
  readonly method = new StringColumn(this)
  readonly route = new StringColumn(this)
  readonly path = new StringColumn(this)
  readonly status = new Column()
  readonly duration = new Column()
  readonly ip = new StringColumn(this)
  readonly userAgent = new StringColumn(this)
  /** The rare columns stay empty until a request needs one; then earlier requests get a default. */
  readonly replayed = new Column(16)
  readonly idempotencyKey = new StringColumn(this)
  readonly error = new Column(16)
  readonly errors: NonNullable<StoredRecord[13]>[] = []
  accountId = ''
  environment: AuthenticatedKey['environment'] = 'test'
  /** `req_` + the process prefix of the first request id, or '' when it had another shape. */
  head = ''
  /** Whether some id did not have the head: ids are then written as they are. */
  literalIds = false
  /** Whether some request was replayed, had an idempotency key, failed with an error. */
  readonly flags = { replayed: false, idempotencyKey: false, error: false }
  /** The last id's first 22 characters and their counter value (ids of a process are sequential). */
  #upper = ''
  #upperValue = 0

  readonly #columns = [
    this.id,
    this.ms,
    this.key,
    this.method,
    this.route,
    this.path,
    this.status,
    this.duration,
    this.ip,
    this.userAgent,
    this.replayed,
    this.idempotencyKey,
    this.error,
  ]

  /** Empties the group for a batch of this account and environment. */
  start(accountId: string, environment: AuthenticatedKey['environment'], firstId: string): this {
    ;[this.accountId, this.environment] = [accountId, environment]
    const parts = requestIdParts(firstId)
    this.head = parts ? `req_${parts.prefix}` : ''
    for (const column of this.#columns) column.clear()
    this.strings.length = 0
    this.positions.clear()
    this.errors.length = 0
    this.literalIds = false
    this.flags.replayed = this.flags.idempotencyKey = this.flags.error = false
    this.#upper = ''
    return this
  }

  get count(): number {
    return this.id.length
  }

  at(text: string): number {
    let position = this.positions.get(text)
    if (position === undefined) {
      position = this.strings.push(text) - 1
      this.positions.set(text, position)
    }
    return position
  }

  /** The id's counter: its last 6 digits read, the 8 before them reused from the previous id. */
  #counter(id: string): number {
    if (this.head === '' || id.length !== 28) return -1
    if (this.#upper === '' || !id.startsWith(this.#upper)) {
      if (!id.startsWith(this.head)) return -1
      const upper = counterOf(`${id.slice(0, 22)}000000`)
      if (upper < 0) return -1
      ;[this.#upper, this.#upperValue] = [id.slice(0, 22), upper]
    }
    let low = 0
    for (let i = 22; i < 28; i++) {
      const code = id.charCodeAt(i)
      const digit = code < 128 ? DIGIT[code]! : -1
      if (digit < 0) return -1
      low = low * 62 + digit
    }
    return this.#upperValue + low
  }

  add(record: RequestRecord): void {
    const { id, error } = record
    let counter = this.#counter(id)
    if (counter < 0) {
      this.literalIds = true
      counter = -1 - this.at(id)
    }
    const queryAt = record.url.indexOf('?')
    this.id.push(counter)
    this.ms.push(record.atMs)
    this.key.add(record.scope.keyId)
    this.method.add(record.method)
    this.route.add(record.route === null ? null : openApiPath(record.route))
    // The query string is not kept: filters may carry personal data (an e-mail address).
    this.path.add(queryAt === -1 ? record.url : record.url.slice(0, queryAt))
    this.status.push(record.status)
    this.duration.push(record.ms)
    this.ip.add(record.ip)
    this.userAgent.add(record.userAgent?.slice(0, MAX_USER_AGENT))
    if (record.replayed || this.flags.replayed) {
      this.#pad('replayed', this.replayed)
      this.replayed.push(record.replayed ? 1 : 0)
    }
    if (record.idempotencyKey !== null || this.flags.idempotencyKey) {
      this.#pad('idempotencyKey', this.idempotencyKey)
      this.idempotencyKey.add(record.idempotencyKey)
    }
    if (error !== null || this.flags.error) {
      this.#pad('error', this.error)
      const envelope = error && {
        error: {
          type: error.type,
          code: error.code,
          message: error.message,
          ...(error.param !== undefined ? { param: error.param } : {}),
        },
      }
      this.error.push(envelope ? this.errors.push(envelope) - 1 : -1)
    }
  }

  /** The first time a rare column is needed: the requests before this one get its default. */
  #pad(flag: keyof Group['flags'], column: Column): void {
    if (this.flags[flag]) return
    this.flags[flag] = true
    const none = flag === 'replayed' ? 0 : -1
    while (column.length < this.count - 1) column.push(none)
  }

  /** The request_log_batches row of these requests. */
  row(): RequestLogBatchesTable {
    const { strings } = this
    const [ids, ms] = [this.id.used, this.ms.used]
    let [firstMs, lastMs, low, high] = [ms[0]!, ms[0]!, ids[0]!, ids[0]!]
    for (let i = 1; i < ids.length; i++) {
      if (ms[i]! < firstMs) firstMs = ms[i]!
      if (ms[i]! > lastMs) lastMs = ms[i]!
      if (ids[i]! < low) low = ids[i]!
      if (ids[i]! > high) high = ids[i]!
    }
    const idText = (counter: number) => (counter < 0 ? strings[-1 - counter]! : idOf(this.head, counter))
    const firstId = idText(ids[0]!)
    const routes = [...new Set(this.route.used)].map((route) => (route < 0 ? '' : strings[route]))
    const statuses = [...new Set(this.status.used)]
    // Written by hand: the columns are typed arrays, which JSON.stringify would write as objects.
    const parts = [
      `{"v":2,"id":${this.literalIds ? JSON.stringify(Array.from(ids, idText)) : this.id.json(low)}`,
      `"ms":${this.ms.json(firstMs)}`,
      `"key":${this.key.json()}`,
      `"method":${this.method.json()}`,
      `"route":${this.route.json()}`,
      `"path":${this.path.json()}`,
      `"status":${this.status.json()}`,
      `"duration_hundredths":${this.duration.json(0, 100)}`,
      `"ip":${this.ip.json()}`,
      `"user_agent":${this.userAgent.json()}`,
    ]
    if (this.flags.replayed) parts.push(`"replayed":${this.replayed.json()}`)
    if (this.flags.idempotencyKey) parts.push(`"idempotency_key":${this.idempotencyKey.json()}`)
    if (this.flags.error)
      parts.push(`"error":${this.error.json()}`, `"errors":${JSON.stringify(this.errors)}`)
    // Last: error codes and ids written above may have added strings.
    parts.push(`"strings":${JSON.stringify(strings)}}`)
    const range = this.literalIds
      ? { id_prefix: '', first_seq: 0, last_seq: -1 }
      : { id_prefix: this.head.slice(4), first_seq: low, last_seq: high }
    return {
      id: firstId,
      account_id: this.accountId,
      environment: this.environment,
      first_at: new Date(firstMs).toISOString(),
      last_at: new Date(lastMs).toISOString(),
      ...range,
      statuses: `,${statuses.join(',')},`,
      routes: `|${routes.join('|')}|`,
      count: ids.length,
      records: parts.join(','),
    }
  }
}

/**
 * Requests waiting to be written, taken in as they are answered: each becomes a few numbers in
 * its account's group (strings by position in the group's table), so nothing of a request stays
 * on the heap but those numbers and the strings it brought first.
 */
export class RequestLogBuffer {
  #groups = new Map<string, Group>()
  /** Groups written out, kept for the next batches (a few: most processes serve few accounts). */
  readonly #spare: Group[] = []
  #last: { scope: AuthenticatedKey; group: Group } | undefined
  #count = 0

  get count(): number {
    return this.#count
  }

  add(record: RequestRecord): void {
    const { scope } = record
    let group = this.#last?.scope === scope ? this.#last.group : undefined
    if (!group) {
      const key = `${scope.accountId} ${scope.environment}`
      group = this.#groups.get(key)
      if (!group) {
        group = (this.#spare.pop() ?? new Group()).start(scope.accountId, scope.environment, record.id)
        this.#groups.set(key, group)
      }
      this.#last = { scope, group }
    }
    group.add(record)
    this.#count++
  }

  /** The batch rows of everything taken in (one per account and environment), emptying the buffer. */
  drain(): RequestLogBatchesTable[] {
    const groups = [...this.#groups.values()]
    const rows = groups.map((group) => group.row())
    this.#spare.push(...groups.slice(0, SPARE_GROUPS - this.#spare.length))
    this.#groups = new Map()
    this.#last = undefined
    this.#count = 0
    return rows
  }
}

/** The batch rows of some records: one per account and environment, in the order first seen. */
export function batchRows(records: readonly RequestRecord[]): RequestLogBatchesTable[] {
  const buffer = new RequestLogBuffer()
  for (const record of records) buffer.add(record)
  return buffer.drain()
}

/** A stored batch's requests, whichever form it was written in. */
