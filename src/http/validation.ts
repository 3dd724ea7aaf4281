// Ajv instances and the translation of a schema violation into the spec's error
// (docs/api.md#errors): the message names the first violation by its path, `submitters[2].email:
// must be at most 320 characters`, and `param` holds that path (docs/api.md#errors).
import AjvModule, { type ErrorObject } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { ApiError, type ErrorCode, fieldError } from '../errors.ts'
import { parseEmailAddress } from '../lib/email-address.ts'
import { own } from '../lib/own.ts'

// ajv and ajv-formats are CommonJS with a default export.
const Ajv = AjvModule.default ?? AjvModule
const addFormats = addFormatsModule.default ?? addFormatsModule

function makeAjv(coerceTypes: boolean | 'array') {
  // removeAdditional stays false: a key the schema refuses is an error, never silently dropped.
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    // An error carries the value it is about: a refused address says why (describe, below).
    verbose: true,
  })
  addFormats(ajv)
  ajv.addFormat(WEB_URL, isWebUrl)
  // docs/api.md#e-mail-addresses: addresses as people write them (ajv-formats' own `email` refuses
  // zoe@müller-bau.de), read by the one parser the handlers use too.
  ajv.addFormat('email', { type: 'string', validate: (text: string) => parseEmailAddress(text).ok })
  return ajv
}

/** Format name of an absolute `https:` or `http:` URL (a `javascript:` URL is a stored XSS). */
export const WEB_URL = 'web-url'

function isWebUrl(text: string): boolean {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== ''
}

/** JSON bodies are validated as sent: "12" is not a number. */
export const bodyAjv = makeAjv(false)
/** Query strings and path parameters are text on the wire: "12" may be read as 12. */
export const textAjv = makeAjv('array')

/** `/submitters/2/email` → `submitters[2].email`. */
export function jsonPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1)
  if (child !== undefined) parts.push(child)
  let out = ''
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`
  }
  return out
}

const FORMAT_PROBLEMS = new Map([
  ['email', 'must be an e-mail address'],
  [WEB_URL, 'must be an absolute https: or http: URL'],
  ['date-time', 'must be an ISO 8601 date and time with a time zone (2026-12-31T23:59:59Z)'],
])

/** A client's key echoed in a message, cut to a readable length. */
function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}

function describe(error: ErrorObject): { path: string; problem: string } {
  const p = error.params as Record<string, unknown>
  // A rule on keys (metadata keys ≤ 100 characters) reports the offending key, not a value.
  const key = (error as ErrorObject & { propertyName?: string }).propertyName
  if (key !== undefined) {
    return {
      path: jsonPath(error.instancePath),
      problem: `key "${key.slice(0, 40)}…" is longer than 100 characters`,
    }
  }
  switch (error.keyword) {
    case 'required':
      return { path: jsonPath(error.instancePath, String(p.missingProperty)), problem: 'is required' }
    case 'additionalProperties':
      return {
        path: jsonPath(error.instancePath, clip(String(p.additionalProperty))),
        problem: 'is not an accepted field',
      }
    case 'type':
      return { path: jsonPath(error.instancePath), problem: `must be ${article(String(p.type))}` }
    case 'enum':
      return {
        path: jsonPath(error.instancePath),
        problem: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      }
    case 'maxLength':
      return { path: jsonPath(error.instancePath), problem: `must be at most ${p.limit} characters` }
    case 'minLength':
      return { path: jsonPath(error.instancePath), problem: `must be at least ${p.limit} character(s)` }
    case 'maxItems':
      return { path: jsonPath(error.instancePath), problem: `must have at most ${p.limit} items` }
    case 'minItems':
      return { path: jsonPath(error.instancePath), problem: `must have at least ${p.limit} item(s)` }
    case 'propertyNames':
      return {
        path: jsonPath(error.instancePath),
        problem: `key "${String(p.propertyName).slice(0, 40)}…" is longer than 100 characters`,
      }
    case 'format':
      if (p.format === 'email' && typeof error.data === 'string') {
        const parsed = parseEmailAddress(error.data)
        if (!parsed.ok) return { path: jsonPath(error.instancePath), problem: parsed.problem }
      }
      return {
        path: jsonPath(error.instancePath),
        problem: FORMAT_PROBLEMS.get(String(p.format)) ?? `must be a ${p.format}`,
      }
    case 'anyOf':
      return {
        path: jsonPath(error.instancePath),
        problem: error.schemaPath.endsWith('additionalProperties/anyOf')
          ? 'must be a string of at most 2000 characters, a number, a boolean or null'
          : 'does not match any of the accepted forms',
      }
    case 'maxProperties':
      return { path: jsonPath(error.instancePath), problem: `must have at most ${p.limit} keys` }
    case 'minProperties':
      return { path: jsonPath(error.instancePath), problem: `must have at least ${p.limit} key(s)` }
    default:
      return { path: jsonPath(error.instancePath), problem: error.message ?? 'is invalid' }
  }
}

function article(type: string): string {
  const names: Record<string, string> = {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'a boolean',
    object: 'an object',
    array: 'an array',
    null: 'null',
  }
  return type
    .split(',')
    .map((t) => own(names, t) ?? t)
    .join(' or ')
}

export type ValidationPart = 'body' | 'querystring' | 'params' | 'headers'

/**
 * Turns the first Ajv error into the spec's error. A bad path id is 400 `invalid_id`
 * (docs/api.md#errors); a bad query parameter gets the route's own code when it has one (`limit` →
 * `invalid_pagination`).
 */
export function validationError(
  errors: ErrorObject[],
  part: ValidationPart,
  queryErrors: Record<string, ErrorCode> = {},
): ApiError {
  // A union's branch errors come before the union's own: name the union, not its first branch.
  const union = errors.find(
    (e) => e.keyword === 'anyOf' && errors[0]?.instancePath.startsWith(e.instancePath),
  )
  const first = union ?? errors[0]
  if (!first) return new ApiError('invalid_request', 'The request does not match the schema.')
  const { path, problem } = describe(first)
  const code = codeOf(part, path, queryErrors)
  const what =
    part === 'params' && path === 'id'
      ? 'malformed id; expected a prefix, "_" and 24 letters or digits'
      : problem
  // The body or query string as a whole (not an object, say) is no field: no `param` then.
  if (path === '') return new ApiError(code, `${part}: ${what}.`)
  return fieldError(code, path, `${what}.`)
}

function codeOf(part: ValidationPart, path: string, queryErrors: Record<string, ErrorCode>): ErrorCode {
  if (part === 'params') return 'invalid_id'
  if (part === 'querystring') return own(queryErrors, path.split(/[.[]/)[0] ?? '') ?? 'invalid_request'
  return 'invalid_request'
}
