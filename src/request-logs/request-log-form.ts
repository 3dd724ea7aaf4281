// What a stored batch of request logs is: the records as reads see them, the
// two forms of a request_log_batches row's `records` text, and reading either back. Written by
// request-log-codec.ts.
//
// Form 2 (written since the request-log cost was measured) is by column: one array per field,
// the strings a batch repeats — key ids, methods, routes, paths, client addresses, user agents,
// error codes — written once in a table and referred to by position; a request id is its counter's
// distance from the batch's first (ids are a process prefix and a counter, lib/ids.ts
// requestIdSource), its time the milliseconds since the batch's first, and a column no request
// uses (idempotency keys, errors) is left out. A batch of `GET /v1/health` is 5.6 times smaller
// than form 1 (an array of RECORD_FIELDS arrays) and costs less to make and to take in.
// Form 1 rows (written before) are still read.

import type { RequestLogBatchesTable } from '../db/tables.ts'
import type { ApiError } from '../errors.ts'
import type { AuthenticatedKey } from '../http/caller.ts'
import { BASE62 } from '../lib/ids.ts'

/** What the response hook knows of a request, handed to the writer as is (no work on the request). */
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

/** One request as a read sees it: these fields, in this order (form 1 stored them so). */
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

/** Form 2: strings by their position in `strings`, -1 for none. */
export interface PackedBatch {
  v: 2
  strings: string[]
  /** The counters' distances from first_seq; or, when the batch has no id range, the ids. */
  id: number[] | string[]
  /** Milliseconds since first_at. */
  ms: number[]
  key: number[]
  method: number[]
  route: number[]
  path: number[]
  status: number[]
  /** Hundredths of a millisecond. */
  duration_hundredths: number[]
  ip: number[]
  user_agent: number[]
  /** Left out when no request was replayed, or had an idempotency key, or failed. */
  replayed?: number[]
  idempotency_key?: number[]
  /** Positions in `errors`, which holds the error envelopes sent. */
  error?: number[]
  errors?: NonNullable<StoredRecord[13]>[]
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

export const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE62.length; i++) DIGIT[BASE62.charCodeAt(i)] = i

/** The counter of a 28-character request id; -1 when a character is not a base-62 digit. */
export function counterOf(id: string): number {
  let seq = 0
  for (let i = 14; i < 28; i++) {
    const digit = DIGIT[id.charCodeAt(i) & 127]!
    if (digit < 0 || id.charCodeAt(i) > 127) return -1
    seq = seq * 62 + digit
  }
  return Number.isSafeInteger(seq) ? seq : -1
}

/**
 * A request id (`req_` + 10 characters of process prefix + 14 of counter, lib/ids.ts
 * requestIdSource) as its prefix and counter; undefined for any other shape.
 */
export function requestIdParts(id: string): { prefix: string; seq: number } | undefined {
  if (!/^req_[0-9A-Za-z]{24}$/.test(id)) return undefined
  const seq = counterOf(id)
  return seq < 0 ? undefined : { prefix: id.slice(4, 14), seq }
}

/** `req_` + process prefix + the counter written as 14 base-62 digits (lib/ids.ts requestIdSource). */
export function idOf(head: string, counter: number): string {
  let [n, digits] = [counter, '']
  for (let i = 0; i < 14; i++) {
    digits = BASE62[n % 62] + digits
    n = Math.floor(n / 62)
  }
  return head + digits
}

/** A growable column of numbers (typed: no boxed number per request, a join without arrays). */

export function decodeBatch(
  batch: Pick<RequestLogBatchesTable, 'records' | 'first_at' | 'id_prefix' | 'first_seq'>,
): StoredRecord[] {
  const parsed = JSON.parse(batch.records) as StoredRecord[] | PackedBatch
  if (Array.isArray(parsed)) return parsed
  const { strings } = parsed
  const firstMs = Date.parse(batch.first_at)
  const firstSeq = Number(batch.first_seq)
  const head = `req_${batch.id_prefix}`
  const text = (position: number | undefined) =>
    position === undefined || position < 0 ? null : strings[position]!
  return parsed.id.map((id, i): StoredRecord => {
    const errorAt = parsed.error?.[i] ?? -1
    const error = errorAt < 0 ? null : parsed.errors![errorAt]!
    return [
      typeof id === 'string' ? id : idOf(head, firstSeq + id),
      firstMs + parsed.ms[i]!,
      strings[parsed.key[i]!]!,
      strings[parsed.method[i]!]!,
      text(parsed.route[i]),
      strings[parsed.path[i]!]!,
      parsed.status[i]!,
      error?.error.code ?? null,
      text(parsed.idempotency_key?.[i]),
      parsed.replayed?.[i] === 1 ? 1 : 0,
      parsed.duration_hundredths[i]! / 100,
      strings[parsed.ip[i]!]!,
      text(parsed.user_agent[i]),
      error,
    ]
  })
}
