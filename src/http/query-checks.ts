// What the query-string schema cannot say, checked on the raw text before Ajv coerces it:
// - an integer parameter is plain decimal digits: Ajv's coercion would read `5.0`, `1e1`, `+5`
//   or `0x5` as numbers, so two spellings of one request would be accepted silently;
// - no value holds U+0000: PostgreSQL text cannot store or compare it (a filter would fail there
//   and succeed on SQLite).
// A refusal takes the route's own code for the parameter (`limit` → invalid_pagination).
import type { FastifyRequest } from 'fastify'
import { type ErrorCode, fieldError } from '../errors.ts'
import { own } from '../lib/own.ts'
import type { AnyRoute } from './define-route.ts'

const PLAIN_INTEGER = /^-?[0-9]{1,15}$/

function integerParameters(route: AnyRoute): Set<string> {
  const properties = (route.schema.querystring as { properties?: Record<string, { type?: unknown }> })
    ?.properties
  return new Set(
    Object.entries(properties ?? {})
      .filter(([, schema]) => schema.type === 'integer')
      .map(([name]) => name),
  )
}

function refuse(route: AnyRoute, name: string, problem: string): never {
  const code: ErrorCode = own(route.queryErrors ?? {}, name) ?? 'invalid_request'
  throw fieldError(code, name, `${problem}.`)
}

/** The check for a route with a query-string schema; undefined when it has none. */
export function queryCheck(route: AnyRoute): ((request: FastifyRequest) => void) | undefined {
  if (!route.schema.querystring) return undefined
  const integers = integerParameters(route)
  return (request) => {
    const query = request.query as Record<string, string | string[]>
    for (const name of Object.keys(query)) {
      for (const value of [query[name]].flat()) {
        if (value === undefined) continue
        if (value.includes('\u0000')) refuse(route, name, 'must not contain the character U+0000')
        if (integers.has(name) && !PLAIN_INTEGER.test(value)) {
          refuse(
            route,
            name,
            `must be a whole number written in decimal digits (got "${value.slice(0, 40)}")`,
          )
        }
      }
    }
  }
}
