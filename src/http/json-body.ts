// The JSON body parser of every route. Beyond JSON.parse it refuses what would be stored differently
// from what was sent, or not at all, each naming where it is:
// - bytes that are not UTF-8 (400 invalid_json): decoding would silently turn them into U+FFFD;
// - U+0000 in a string or key (422): PostgreSQL text cannot hold it, so the same body would be a
//   201 on SQLite and a failure on PostgreSQL;
// - a lone UTF-16 surrogate (`"\ud800"`, 422): not a character; it would be stored as U+FFFD;
// - a number JSON.parse rounded to ±Infinity (`1e309`, 422): it would be stored as null;
// - a `__proto__` key (422): JSON.parse makes it an ordinary key, but any consumer that copies the
//   object with assignment (ours, or a webhook receiver's) would replace a prototype instead.
import { isUtf8 } from 'node:buffer'
import { ApiError, fieldError } from '../errors.ts'
import { LIMITS } from '../limits.ts'
import { jsonPath } from './validation.ts'

/** Strings are only searched when the text holds an escape that can produce what we refuse. */
const SUSPICIOUS_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/

/** Offset of the first byte of the first malformed sequence; only reached for a refused body. */
function firstInvalidUtf8Byte(bytes: Buffer): number {
  // The longest prefix that decodes (an unfinished sequence at its end allowed) ends where decoding
  // fails; the malformed sequence starts there, or at the unfinished one's lead byte just before.
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let low = 0
  let high = bytes.length
  while (high - low > 1) {
    const middle = (low + high) >> 1
    try {
      decoder.decode(bytes.subarray(0, middle), { stream: true })
      low = middle
    } catch {
      high = middle
    }
  }
  for (let j = low - 1; j >= Math.max(0, low - 3); j--) {
    const byte = bytes[j]!
    if (byte < 0x80) break
    if (byte >= 0xc0) return j + (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) > low ? j : low
  }
  return low
}

function stringProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain the character U+0000'
  if (!value.isWellFormed()) return 'must not contain a lone UTF-16 surrogate (\\ud800–\\udfff)'
  return null
}

function refuse(pointer: string[], problem: string): never {
  const escaped = pointer.map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1'))
  const path = jsonPath(escaped.length ? `/${escaped.join('/')}` : '')
  if (path === '') throw new ApiError('invalid_request', `body: ${problem}.`)
  throw fieldError('invalid_request', path, `${problem}.`)
}

/** No route reads deeper than a few levels; past this a body is refused before any walk overflows. */
export const MAX_JSON_DEPTH = LIMITS.jsonDepth

/** Walks the parsed body depth-first; throws at the first refused key or value. */
function check(value: unknown, pointer: string[], strings: boolean): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(pointer, 'must be a finite number; this one is out of range')
    return
  }
  if (typeof value === 'string') {
    const problem = strings ? stringProblem(value) : null
    if (problem) refuse(pointer, problem)
    return
  }
  if (value === null || typeof value !== 'object') return
  if (pointer.length >= MAX_JSON_DEPTH) refuse(pointer, `nests deeper than ${MAX_JSON_DEPTH} levels`)
  const keys = Array.isArray(value) ? value.keys() : Object.keys(value)
  for (const key of keys) {
    pointer.push(String(key))
    if (key === '__proto__') refuse(pointer, 'the key "__proto__" is not accepted')
    const problem = strings && typeof key === 'string' ? stringProblem(key) : null
    if (problem) refuse(pointer, `key ${problem}`)
    check((value as Record<string, unknown>)[key], pointer, strings)
    pointer.pop()
  }
}

/** Fastify content-type parser for `application/json` (Fastify hands over the raw bytes). */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) {
    throw new ApiError(
      'invalid_json',
      'Body is empty but Content-Type is application/json; send a JSON object.',
    )
  }
  if (!isUtf8(bytes)) {
    throw new ApiError(
      'invalid_json',
      `Body is not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8Byte(bytes)}); send JSON encoded as UTF-8.`,
    )
  }
  const text = bytes.toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ApiError('invalid_json', `Body is not valid JSON: ${(error as Error).message}`)
  }
  check(value, [], SUSPICIOUS_ESCAPE.test(text))
  return value
}
