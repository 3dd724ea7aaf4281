// A request being built for one route: the parts generated from its schemas (params, query, body)
// and their wire form (raw path segments, raw query, headers), which the families then change.
import fc from 'fast-check'
import { type AnyRoute, usesApiKey } from '../../src/http/define-route.ts'
import {
  type Family,
  FRESH_KEY,
  type FuzzRequest,
  fillPath,
  fuzzRequest,
  queryString,
  withQuery,
} from './fuzz-request.ts'
import { arbitraryFor, type GenContext, type JsonSchema } from './schema-arbitrary.ts'

export interface Target {
  route: AnyRoute
  /** The account's test key. */
  key: string
  ctx: GenContext
  /** Real values of the route's path parameters (ids of seeded rows, signing slugs, file tokens). */
  pathSeeds: Record<string, string[]>
}

export interface Parts {
  params: Record<string, unknown>
  query: Record<string, unknown>
  body: unknown
}

/** A request before it is finished: raw path segments, raw query, headers (undefined = left out). */
export interface Wire {
  method: string
  segments: Record<string, string>
  query: string
  headers: Record<string, string | undefined>
  payload?: string | Buffer
}

export const schema = (s: unknown) => s as JsonSchema | undefined
export const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!)
export const queryNames = (route: AnyRoute) => Object.keys(schema(route.schema.querystring)?.properties ?? {})

export function partsFor(t: Target): fc.Arbitrary<Parts> {
  const paramsSchema = schema(t.route.schema.params)
  const params: Record<string, fc.Arbitrary<unknown>> = {}
  for (const name of paramNames(t.route.url)) {
    const own = arbitraryFor(paramsSchema?.properties?.[name] ?? { type: 'string', minLength: 1 }, t.ctx)
    const seeds = t.pathSeeds[name] ?? []
    params[name] = seeds.length > 0 ? fc.oneof(fc.constantFrom(...seeds), own) : own
  }
  const query = schema(t.route.schema.querystring)
  const body = schema(t.route.schema.body)
  return fc.record({
    params: fc.record(params),
    query: (query ? arbitraryFor(query, t.ctx) : fc.constant({})) as fc.Arbitrary<Record<string, unknown>>,
    body: body ? arbitraryFor(body, t.ctx) : fc.constant(undefined),
  })
}

export function wireOf(t: Target, parts: Parts): Wire {
  const segments: Record<string, string> = {}
  for (const [name, value] of Object.entries(parts.params)) segments[name] = encodeURIComponent(String(value))
  const headers: Record<string, string | undefined> = {}
  if (usesApiKey(t.route)) headers.authorization = `Bearer ${t.key}`
  if (t.route.idempotent) headers['idempotency-key'] = FRESH_KEY
  const wire: Wire = { method: t.route.method, segments, query: queryString(parts.query), headers }
  if (parts.body !== undefined) {
    headers['content-type'] = 'application/json'
    wire.payload = JSON.stringify(parts.body)
  }
  return wire
}

export function finish(t: Target, wire: Wire, family: Family, note: string): FuzzRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(wire.headers)) if (value !== undefined) headers[name] = value
  const url = withQuery(fillPath(t.route.url, wire.segments), wire.query)
  return fuzzRequest({ family, note, method: wire.method, url, headers, payload: wire.payload })
}
