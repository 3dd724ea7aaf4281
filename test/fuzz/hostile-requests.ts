// Hostile requests for one route, from the catalogue of hostile-values.ts: prototype-named and odd
// query parameters, hostile JSON bodies, odd headers, malformed path segments, HEAD, and U+0000.
import fc from 'fast-check'
import type { FuzzRequest } from './fuzz-request.ts'
import { bodyPlan, hostileBody } from './hostile-body.ts'
import {
  authorizations,
  CONTENT_TYPES,
  IDEMPOTENCY_KEYS,
  malformedIds,
  ODD_HEADERS,
  ODD_QUERY_VALUES,
  PROTO_KEYS,
  protoQueryForms,
} from './hostile-values.ts'
import { idPrefixOf } from './schema-arbitrary.ts'
import { finish, type Parts, paramNames, partsFor, queryNames, schema, type Target, wireOf } from './wire.ts'

function protoQuery(t: Target, parts: fc.Arbitrary<Parts>) {
  const names = queryNames(t.route)
  return fc.tuple(parts, fc.constantFrom(...PROTO_KEYS), fc.nat()).map(([p, key, alt]) => {
    const forms = protoQueryForms(key, names[alt % (names.length || 1)] ?? 'limit')
    const form = forms[alt % forms.length]!
    const wire = wireOf(t, p)
    wire.query = [wire.query, form].filter(Boolean).join('&')
    return finish(t, wire, 'hostile', `prototype-named key in the query: ${form}`)
  })
}

function oddQuery(t: Target, parts: fc.Arbitrary<Parts>) {
  const names = queryNames(t.route)
  return fc
    .tuple(
      parts,
      fc.constantFrom(...(names.length > 0 ? names : ['limit'])),
      fc.constantFrom(...ODD_QUERY_VALUES),
      fc.boolean(),
    )
    .map(([p, name, value, repeat]) => {
      const wire = wireOf(t, p)
      const kept = wire.query
        .split('&')
        .filter((pair) => pair !== '' && (repeat || !pair.startsWith(`${name}=`)))
      wire.query = [...kept, `${name}=${value}`].join('&')
      return finish(
        t,
        wire,
        'hostile',
        `odd query value ${name}=${value.slice(0, 40)}${repeat ? ' (repeated key)' : ''}`,
      )
    })
}

const HEADER_KINDS = ['content-type', 'idempotency-key', 'authorization', 'other'] as const

function headerJunk(t: Target, parts: fc.Arbitrary<Parts>) {
  return fc.tuple(parts, fc.constantFrom(...HEADER_KINDS), fc.nat()).map(([p, kind, alt]) => {
    const wire = wireOf(t, p)
    const pick = <T>(list: T[]) => list[alt % list.length] as T
    if (kind === 'content-type') {
      if (wire.payload === undefined && t.route.method !== 'GET') wire.payload = '{}'
      wire.headers['content-type'] = pick([...CONTENT_TYPES, undefined])
    } else if (kind === 'idempotency-key') wire.headers['idempotency-key'] = pick(IDEMPOTENCY_KEYS)
    else if (kind === 'authorization') wire.headers.authorization = pick(authorizations(t.key))
    else Object.assign(wire.headers, pick(ODD_HEADERS))
    const shown =
      kind === 'other'
        ? JSON.stringify(pick(ODD_HEADERS)).slice(0, 60)
        : JSON.stringify(wire.headers[kind])?.slice(0, 60)
    return finish(t, wire, 'hostile', `odd header ${kind}: ${shown ?? '(left out)'}`)
  })
}

function badPath(t: Target, parts: fc.Arbitrary<Parts>) {
  const names = paramNames(t.route.url)
  return fc.tuple(parts, fc.constantFrom(...names), fc.nat()).map(([p, name, alt]) => {
    const prefix = idPrefixOf(schema(t.route.schema.params)?.properties?.[name] ?? {}) ?? 'x'
    const wire = wireOf(t, p)
    const options = malformedIds(prefix, wire.segments[name] ?? '')
    const segment = options[alt % options.length]!
    wire.segments[name] = segment
    return finish(t, wire, 'hostile', `malformed path ${name}: ${segment.slice(0, 60)}`)
  })
}

function bodyAttack(t: Target, parts: fc.Arbitrary<Parts>) {
  return fc.tuple(parts, bodyPlan).map(([p, plan]) => {
    const wire = wireOf(t, p)
    const { payload, note } = hostileBody(p.body ?? {}, schema(t.route.schema.body), plan)
    wire.payload = payload
    wire.headers['content-type'] = 'application/json'
    return finish(t, wire, 'hostile', note)
  })
}

/**
 * U+0000 where a string goes: a path segment, a query value or a body string. It has a kind of its
 * own because it is an engine's problem (PostgreSQL text refuses it), so every route gets it often.
 */
function nul(t: Target, parts: fc.Arbitrary<Parts>) {
  const names = paramNames(t.route.url)
  const strings = queryNames(t.route).filter(
    (n) => schema(t.route.schema.querystring)?.properties?.[n]?.type === 'string',
  )
  const where = [
    ...(names.length > 0 ? ['path'] : []),
    ...(strings.length > 0 ? ['query'] : []),
    ...(t.route.method === 'GET' ? [] : ['body']),
  ]
  if (where.length === 0) return undefined
  return fc.tuple(parts, fc.constantFrom(...where), fc.nat()).map(([p, part, pick]) => {
    const wire = wireOf(t, p)
    if (part === 'path') {
      const name = names[pick % names.length]!
      wire.segments[name] = `${wire.segments[name]}%00`
      return finish(t, wire, 'hostile', `U+0000 in path ${name}`)
    }
    if (part === 'query') {
      const name = strings[pick % strings.length]!
      const value = encodeURIComponent(String(p.query[name] ?? 'a'))
      const kept = wire.query.split('&').filter((pair) => pair !== '' && !pair.startsWith(`${name}=`))
      wire.query = [...kept, `${name}=${value}%00`].join('&')
      return finish(t, wire, 'hostile', `U+0000 in query ${name}`)
    }
    const body = hostileBody(p.body ?? {}, schema(t.route.schema.body), { kind: 'nul', pick, alt: pick })
    wire.payload = body.payload
    wire.headers['content-type'] = 'application/json'
    return finish(t, wire, 'hostile', body.note)
  })
}

function head(t: Target, parts: fc.Arbitrary<Parts>) {
  return fc.tuple(parts, fc.option(fc.constantFrom(...PROTO_KEYS))).map(([p, key]) => {
    const wire = { ...wireOf(t, p), method: 'HEAD' }
    if (key) wire.query = [wire.query, `${key}=1`].filter(Boolean).join('&')
    return finish(t, wire, 'hostile', `HEAD${key ? ` with ?${key}=1` : ''}`)
  })
}

/** One hostile request of any kind that applies to the route; U+0000 weighs double. */
export function hostile(t: Target): fc.Arbitrary<FuzzRequest> {
  const parts = partsFor(t)
  const kinds = [protoQuery(t, parts), oddQuery(t, parts), headerJunk(t, parts)]
  if (t.route.method !== 'GET') kinds.push(bodyAttack(t, parts))
  if (paramNames(t.route.url).length > 0) kinds.push(badPath(t, parts))
  if (t.route.method === 'GET') kinds.push(head(t, parts))
  const weighted = kinds.map((arbitrary) => ({ weight: 1, arbitrary }))
  const zero = nul(t, parts)
  if (zero) weighted.push({ weight: 2, arbitrary: zero })
  return fc.oneof(...weighted)
}
