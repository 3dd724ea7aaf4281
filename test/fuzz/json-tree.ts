// Walking a JSON value beside its schema: every node with its path and the schema that governs it,
// so a mutation or a raw splice can target "a string leaf" or "an object" anywhere in a request.
import type { JsonSchema } from './schema-arbitrary.ts'

export type Path = Array<string | number>

export interface JsonNode {
  path: Path
  value: unknown
  /** Undefined where the schema says nothing (inside a free-form value). */
  schema: JsonSchema | undefined
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function childSchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  if (!schema) return undefined
  if (schema.properties && Object.hasOwn(schema.properties, key)) return schema.properties[key]
  for (const [pattern, sub] of Object.entries(schema.patternProperties ?? {})) {
    if (new RegExp(pattern).test(key)) return sub
  }
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined
}

/** Every node of `value`, depth first, the root first. */
export function nodesOf(value: unknown, schema: JsonSchema | undefined, path: Path = []): JsonNode[] {
  const out: JsonNode[] = [{ path, value, schema }]
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push(...nodesOf(item, schema?.items, [...path, i]))
    })
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      out.push(...nodesOf(child, childSchema(schema, key), [...path, key]))
    }
  }
  return out
}

/** A deep copy through JSON: request values are JSON, and "__proto__" stays an own key. */
export function copyJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T)
}

/** Defines rather than assigns: `parent.__proto__ = x` would swap the prototype instead. */
export function setOwn(parent: object, key: string | number, value: unknown): void {
  Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Replaces the node at `path` (the root when empty) and returns the new root. */
export function replaceAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value
  const copy = copyJson(root)
  let parent = copy as Record<string | number, unknown>
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>
  setOwn(parent, path[path.length - 1]!, value)
  return copy
}

/** Removes the key or item at `path`; the root itself cannot be removed. */
export function removeAt(root: unknown, path: Path): unknown {
  const copy = copyJson(root)
  let parent = copy as Record<string | number, unknown>
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>
  const last = path[path.length - 1]!
  if (Array.isArray(parent)) parent.splice(Number(last), 1)
  else delete parent[last]
  return copy
}

export function pathText(path: Path): string {
  return path.length === 0 ? '(root)' : path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')
}
