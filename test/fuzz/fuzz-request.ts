// One generated request as it goes on the wire (raw URL, headers, raw body), with what made it and a
// short printable form: fast-check prints counterexamples through it, so a 1 MB body stays readable.
import fc from 'fast-check'
import { isObject, type Path, replaceAt } from './json-tree.ts'

export type Family = 'valid' | 'near-valid' | 'hostile' | 'unknown-route'

export interface FuzzRequest {
  family: Family
  /** What was done to the request, `off_by_one at .submitters[0].email`. */
  note: string
  method: string
  /** Path and query, exactly as sent. */
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
}

/** Stands for an Idempotency-Key not used before; replaced when the request is sent. */
export const FRESH_KEY = '<fresh idempotency key>'

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`

/** JSON with its long strings cut, when that JSON is exactly the text (else the raw text is shown). */
function shortJson(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (JSON.stringify(value) !== text) return undefined
    return JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'string' && v.length > 80 ? `${v.slice(0, 40)}…(${v.length} characters)` : v,
    )
  } catch {
    return undefined
  }
}

/** Body text with control characters and invalid bytes visible, and long strings cut. */
function bodyPreview(payload: string | Buffer): string {
  if (typeof payload === 'string') return clip(JSON.stringify(shortJson(payload) ?? payload), 600)
  const text = payload.toString('utf8')
  const invalid = Buffer.compare(Buffer.from(text, 'utf8'), payload) !== 0
  const head = clip(JSON.stringify(text), 600)
  return invalid ? `${head} [raw bytes, not UTF-8: ${payload.subarray(0, 200).toString('hex')}…]` : head
}

export function preview(request: FuzzRequest): string {
  const headers = Object.entries(request.headers).map(([k, v]) => `  ${k}: ${clip(JSON.stringify(v), 160)}`)
  return [
    `${request.family} request (${request.note})`,
    `${request.method} ${clip(request.url, 400)}`,
    ...headers,
    request.payload === undefined ? '  (no body)' : `  body: ${bodyPreview(request.payload)}`,
  ].join('\n')
}

/**
 * The request with a one-line form for fast-check's counterexample line (a 1 MB body stays out of
 * it); the failure message itself carries the full preview of the request as sent.
 */
export function fuzzRequest(request: FuzzRequest): FuzzRequest {
  const line = () => `${request.method} ${clip(request.url, 200)} (${request.family}: ${request.note})`
  return Object.assign(request, { [fc.toStringMethod]: line })
}

/** `/v1/submissions/:id` with raw (already encoded) segments. */
export function fillPath(template: string, segments: Record<string, string>): string {
  return template.replace(/:([A-Za-z_]+)/g, (_, name: string) => segments[name] ?? '')
}

function queryPairs(key: string, value: unknown): string[] {
  const k = encodeURIComponent(key)
  if (Array.isArray(value)) return value.flatMap((v) => queryPairs(key, v))
  if (isObject(value)) return Object.entries(value).flatMap(([sub, v]) => queryPairs(`${key}[${sub}]`, v))
  return [`${k}=${encodeURIComponent(value === null ? '' : String(value))}`]
}

/** A query object as a query string: arrays repeat the key, objects use `key[sub]`. */
export function queryString(query: unknown): string {
  if (!isObject(query)) return ''
  return Object.entries(query)
    .flatMap(([k, v]) => queryPairs(k, v))
    .join('&')
}

export function withQuery(path: string, query: string): string {
  return query === '' ? path : `${path}?${query}`
}

const MARK = '@@fuzz-splice@@'

/**
 * The body as JSON text with raw text or bytes spliced in: replacing the node at `path`, or, with
 * `key`, adding that key (first) to the object at `path`. Raw text can be what JSON.stringify never
 * writes: `1e309`, 10 000 levels of nesting, `"__proto__"` as a key, bytes that are not UTF-8.
 */
export function splice(body: unknown, path: Path, raw: string | Buffer, key?: string): string | Buffer {
  let marked: unknown
  let token: string
  if (key === undefined) {
    marked = replaceAt(body, path, MARK)
    token = JSON.stringify(MARK)
  } else {
    const target = path.reduce<unknown>((node, step) => (node as Record<string, unknown>)[step], body)
    marked = replaceAt(body, path, { [MARK]: 0, ...(target as object) })
    token = `${JSON.stringify(MARK)}:0`
  }
  const text = JSON.stringify(marked)
  const at = text.indexOf(token)
  const before = text.slice(0, at) + (key === undefined ? '' : `${JSON.stringify(key)}:`)
  const after = text.slice(at + token.length)
  if (typeof raw === 'string') return before + raw + after
  return Buffer.concat([Buffer.from(before), raw, Buffer.from(after)])
}

/** `{ "a": 1 }`-style objects at any depth of a body: where keys can be added. */
export function objectPaths(body: unknown, path: Path = []): Path[] {
  if (Array.isArray(body)) return body.flatMap((item, i) => objectPaths(item, [...path, i]))
  if (!isObject(body)) return []
  return [path, ...Object.entries(body).flatMap(([k, v]) => objectPaths(v, [...path, k]))]
}
