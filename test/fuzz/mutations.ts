// Near-valid values: one mutation of a valid value (a field removed, an extra key, a wrong type, a
// bound crossed by one, an enum, pattern or format broken), at a node chosen by the plan. The plan
// is data, so fast-check can shrink and replay it.
import fc from 'fast-check'
import { isObject, type JsonNode, nodesOf, pathText, removeAt, replaceAt } from './json-tree.ts'
import type { JsonSchema } from './schema-arbitrary.ts'

export const MUTATIONS = ['remove', 'extra_key', 'wrong_type', 'off_by_one', 'break_rule'] as const
export type MutationKind = (typeof MUTATIONS)[number]
export interface MutationPlan {
  kind: MutationKind
  pick: number
  alt: number
}

export const mutationPlan: fc.Arbitrary<MutationPlan> = fc.record({
  kind: fc.constantFrom(...MUTATIONS),
  pick: fc.nat(),
  alt: fc.nat(),
})

export interface Mutated {
  value: unknown
  note: string
}

const OTHER_TYPES: unknown[] = ['text', '', 12, 1.5, true, null, [], {}, ['a'], { a: 1 }]
const EXTRA_KEYS = ['unexpected', 'id', 'object', 'created_at', 'Name', '']

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

/** Values one step outside the node's bounds (length, items, range, keys). */
function crossings(node: JsonNode): unknown[] {
  const { value: v, schema: s } = node
  if (!s) return []
  const out: unknown[] = []
  if (typeof v === 'string') {
    if (s.maxLength !== undefined) out.push(v.padEnd(s.maxLength + 1, 'x'))
    if (s.minLength) out.push(v.slice(0, s.minLength - 1))
    if (s.pattern && s.maxLength === undefined) out.push(v.slice(0, -1), `${v}${v.slice(-1) || 'a'}`)
  } else if (Array.isArray(v)) {
    if (s.maxItems !== undefined)
      out.push(Array.from({ length: s.maxItems + 1 }, (_, i) => v[i % (v.length || 1)] ?? null))
    if (s.minItems) out.push(v.slice(0, s.minItems - 1))
  } else if (typeof v === 'number') {
    if (s.maximum !== undefined) out.push(s.maximum + 1)
    if (s.minimum !== undefined) out.push(s.minimum - 1)
    if (s.exclusiveMinimum !== undefined) out.push(s.exclusiveMinimum)
    if (s.type === 'integer') out.push(v + 0.5)
  } else if (isObject(v)) {
    if (s.maxProperties !== undefined) {
      const keys = Array.from({ length: s.maxProperties + 1 }, (_, i) => [`k${i}`, i])
      out.push({ ...Object.fromEntries(keys), ...v })
    }
    const keyMax = s.propertyNames?.maxLength
    if (keyMax !== undefined) out.push({ ...v, ['k'.repeat(keyMax + 1)]: 1 })
  }
  return out
}

/** A value that breaks an enum, pattern, format or integer rule. */
function ruleBreakers(node: JsonNode): unknown[] {
  const { value: v, schema: s } = node
  if (!s) return []
  const out: unknown[] = []
  if (s.enum) out.push(`${String(s.enum[0]).toUpperCase()}x`, ` ${String(s.enum[0])}`)
  if (typeof v === 'string' && s.pattern) out.push(`${v}!`, ` ${v}`)
  if (s.format) out.push(`not a ${s.format}`)
  if (s.type === 'integer') out.push(2.5)
  return out
}

function applicable(kind: MutationKind, node: JsonNode): boolean {
  switch (kind) {
    case 'remove':
      return node.path.length > 0
    case 'extra_key':
      return isObject(node.value)
    case 'wrong_type':
      return true
    case 'off_by_one':
      return crossings(node).length > 0
    case 'break_rule':
      return ruleBreakers(node).length > 0
  }
}

function wrongType(node: JsonNode, alt: number): unknown {
  const others = OTHER_TYPES.filter((o) => jsonType(o) !== jsonType(node.value))
  return others[alt % others.length]
}

/** Applies one mutation of kind `plan.kind` (or a type change where that kind finds no node). */
export function mutate(value: unknown, schema: JsonSchema | undefined, plan: MutationPlan): Mutated {
  const nodes = nodesOf(value, schema)
  const fits = nodes.filter((n) => applicable(plan.kind, n))
  const kind = fits.length > 0 ? plan.kind : 'wrong_type'
  const pool = fits.length > 0 ? fits : nodes
  const node = pool[plan.pick % pool.length]!
  const note = `${kind} at ${pathText(node.path)}`
  switch (kind) {
    case 'remove':
      return { value: removeAt(value, node.path), note }
    case 'extra_key': {
      const key = EXTRA_KEYS[plan.alt % EXTRA_KEYS.length]!
      return {
        value: replaceAt(value, node.path, { ...(node.value as object), [key]: 1 }),
        note: `${note}: "${key}"`,
      }
    }
    case 'off_by_one': {
      const options = crossings(node)
      return { value: replaceAt(value, node.path, options[plan.alt % options.length]), note }
    }
    case 'break_rule': {
      const options = ruleBreakers(node)
      return { value: replaceAt(value, node.path, options[plan.alt % options.length]), note }
    }
    case 'wrong_type':
      return { value: replaceAt(value, node.path, wrongType(node, plan.alt)), note }
  }
}
