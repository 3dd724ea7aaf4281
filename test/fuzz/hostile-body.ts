// Hostile JSON bodies built from a valid one: a prototype-named key in some object, U+0000 or bytes
// that are not UTF-8 in a string, an odd number literal, 10 000 levels of nesting or a 1.1 MB string
// in place of a node, or a body that is not one JSON object at all.
import fc from 'fast-check'
import { objectPaths, splice } from './fuzz-request.ts'
import {
  BAD_UTF8,
  DEEP_JSON,
  HUGE_LENGTH,
  MALFORMED_JSON,
  NUL_LIKE,
  ODD_NUMBERS,
  PROTO_KEYS,
  PROTO_VALUES,
} from './hostile-values.ts'
import { isObject, type JsonNode, nodesOf, pathText, replaceAt } from './json-tree.ts'
import type { JsonSchema } from './schema-arbitrary.ts'

const KINDS = ['proto_key', 'nul', 'bad_utf8', 'odd_number', 'deep', 'huge', 'malformed'] as const

export interface BodyPlan {
  kind: (typeof KINDS)[number]
  pick: number
  alt: number
}

export const bodyPlan: fc.Arbitrary<BodyPlan> = fc.record({
  kind: fc.constantFrom(...KINDS),
  pick: fc.nat(),
  alt: fc.nat(),
})

export interface HostileBody {
  payload: string | Buffer
  note: string
}

/** Nodes of the kind wanted, or every node when the body has none of that kind. */
function choose(nodes: JsonNode[], wanted: (n: JsonNode) => boolean, pick: number): JsonNode {
  const fits = nodes.filter(wanted)
  const pool = fits.length > 0 ? fits : nodes
  return pool[pick % pool.length]!
}

const isString = (n: JsonNode) => typeof n.value === 'string'
/** Free text: a string no pattern, format or enum refuses before it reaches the database. */
const isText = (n: JsonNode) => isString(n) && !n.schema?.pattern && !n.schema?.format && !n.schema?.enum
const isNumber = (n: JsonNode) => typeof n.value === 'number'
const at = <T>(list: readonly T[], i: number): T => list[i % list.length]!

/** Not one JSON object: broken syntax, another JSON type, a BOM, trailing text, a duplicated key. */
function malformed(body: unknown, alt: number): HostileBody {
  const text = JSON.stringify(body)
  const first = isObject(body) ? Object.keys(body)[0] : undefined
  const variants = [
    ...MALFORMED_JSON,
    `\ufeff${text}`,
    `${text} x`,
    first === undefined ? '{"a":1,"a":2}' : `{${JSON.stringify(first)}:null,${text.slice(1)}`,
  ]
  const payload = at(variants, alt)
  return { payload, note: `malformed JSON body ${JSON.stringify(payload.slice(0, 40))}` }
}

type Attack = (body: unknown, nodes: JsonNode[], pick: number, alt: number) => HostileBody

const ATTACKS: Record<BodyPlan['kind'], Attack> = {
  proto_key: (body, _nodes, pick, alt) => {
    const path = at(objectPaths(body).concat([[]]), pick)
    const key = at(PROTO_KEYS, alt)
    const raw = at(PROTO_VALUES, Math.floor(alt / PROTO_KEYS.length))
    const payload = isObject(body) ? splice(body, path, raw, key) : `{${JSON.stringify(key)}:${raw}}`
    return { payload, note: `"${key}": ${raw} added at ${pathText(path)}` }
  },
  nul: (body, nodes, pick, alt) => {
    const node = choose(nodes, isText, pick)
    const value = `${typeof node.value === 'string' ? node.value : ''}${at(NUL_LIKE, alt)}`
    const payload = JSON.stringify(replaceAt(body, node.path, value))
    return { payload, note: `U+0000 or lone surrogate at ${pathText(node.path)}` }
  },
  bad_utf8: (body, nodes, pick, alt) => {
    const node = choose(nodes, isString, pick)
    const raw = Buffer.concat([Buffer.from('"ok'), Buffer.from(at(BAD_UTF8, alt)), Buffer.from('"')])
    return { payload: splice(body, node.path, raw), note: `invalid UTF-8 bytes at ${pathText(node.path)}` }
  },
  odd_number: (body, nodes, pick, alt) => {
    const node = choose(nodes, isNumber, pick)
    const raw = at(ODD_NUMBERS, alt)
    return { payload: splice(body, node.path, raw), note: `number ${raw} at ${pathText(node.path)}` }
  },
  deep: (body, nodes, pick, alt) => {
    const node = at(nodes, pick)
    const note = `10 000 levels of nesting at ${pathText(node.path)}`
    return { payload: splice(body, node.path, at(DEEP_JSON, alt)), note }
  },
  huge: (body, nodes, pick) => {
    const node = choose(nodes, isString, pick)
    const note = `${HUGE_LENGTH}-character string at ${pathText(node.path)}`
    return { payload: splice(body, node.path, `"${'A'.repeat(HUGE_LENGTH)}"`), note }
  },
  malformed: (body, _nodes, _pick, alt) => malformed(body, alt),
}

/** The body spliced or changed per plan; `body` is a valid body, or `{}` on a route that takes none. */
export function hostileBody(body: unknown, schema: JsonSchema | undefined, plan: BodyPlan): HostileBody {
  return ATTACKS[plan.kind](body, nodesOf(body, schema), plan.pick, plan.alt)
}
