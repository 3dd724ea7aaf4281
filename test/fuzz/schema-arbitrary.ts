// Valid values from a route's own JSON schema (TypeBox emits plain JSON Schema): strings honouring
// pattern, format and lengths, enums, bounded numbers, nested objects and arrays. Every string and
// number leaf is checked by the app's own Ajv, so "valid" means what the server's validator means.
import fc from 'fast-check'
import { bodyAjv } from '../../src/http/validation.ts'

export interface JsonSchema {
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: JsonSchema[]
  pattern?: string
  format?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  patternProperties?: Record<string, JsonSchema>
  propertyNames?: JsonSchema
  maxProperties?: number
  minProperties?: number
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
}

export interface GenContext {
  /** Ids of rows that exist, by prefix (`tpl` → ['tpl_…']): some requests name real rows. */
  ids: Record<string, string[]>
  /**
   * Property name → values still valid for its schema that get past business rules to deeper code (a
   * real PDF, a role the seeded templates have), made from the schema's own values or from scratch.
   */
  hints: Record<string, (own: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>>
}

/** `^tpl_[0-9A-Za-z]{24}$` (lib/ids.ts idPattern) → `tpl`. */
export function idPrefixOf(schema: JsonSchema): string | undefined {
  return schema.pattern ? /^\^([a-z]+)_\[0-9A-Za-z\]\{24\}\$$/.exec(schema.pattern)?.[1] : undefined
}

/** Text a client may legitimately send: any script, markup, quotes, SQL-looking text. */
const TRICKY_TEXT = [
  "' OR 1=1 --",
  'Robert"); DROP TABLE submissions;--',
  '<script>alert(1)</script>',
  '{{name}}',
  '%s%n%x',
  '../../etc/passwd',
  '\u202eevil.pdf',
  'Zoë Ñúñez-Łukasz 李小龍',
  '😀👩‍👩‍👧',
  'line\u2028separator',
  ' ',
  '\t\n',
]

const text = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom(...TRICKY_TEXT) },
  )

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.oneof(fc.emailAddress(), fc.constantFrom('ann@example.eu', 'O.Brien+tag@sub.example.org')),
  'date-time': fc
    // After the test clock's start: `expires_at` must be in the future.
    .date({
      min: new Date('2027-01-01T00:00:00Z'),
      max: new Date('2031-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  uri: fc.oneof(fc.webUrl(), fc.constantFrom('https://example.eu/done', 'https://example.eu/a?b=c#d')),
  'web-url': fc.oneof(
    fc.webUrl(),
    fc.constantFrom('https://example.eu/done', 'http://intranet.example:8080/x'),
  ),
}

const validators = new WeakMap<JsonSchema, (value: unknown) => boolean>()

/** The app's own Ajv verdict on a leaf value. */
function leafValid(schema: JsonSchema, value: unknown): boolean {
  let validate = validators.get(schema)
  if (!validate) {
    const compiled = bodyAjv.compile(schema)
    validate = (v) => compiled(v) === true
    validators.set(schema, validate)
  }
  return validate(value)
}

function stringFor(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<unknown> {
  const prefix = idPrefixOf(schema)
  const seeded = prefix ? (ctx.ids[prefix] ?? []) : []
  let arb: fc.Arbitrary<string>
  // Random text filtered by a format it never matches would loop for ever: a new format must
  // come with its generator.
  if (schema.format && !FORMATS[schema.format] && !schema.pattern) {
    throw new Error(`the fuzz has no generator for the string format "${schema.format}": add one to FORMATS`)
  }
  if (schema.pattern) arb = fc.stringMatching(new RegExp(schema.pattern))
  else if (schema.format) arb = FORMATS[schema.format]!
  else arb = text(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40))
  const checked = arb.filter((s) => leafValid(schema, s))
  return seeded.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...seeded) }, checked) : checked
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6
  const max = schema.maximum ?? 1e6
  const arb = integer
    ? fc.integer({ min, max })
    : fc.oneof(
        // Fractions of the page (docs/api.md#field-areas) as well as points.
        fc.double({ min: Math.max(min, 0), max: Math.min(max, 1), noNaN: true }),
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      )
  return arb.filter((n) => !Object.is(n, -0) && leafValid(schema, n))
}

function arrayFor(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<unknown> {
  const minLength = schema.minItems ?? 0
  // Small arrays keep a run fast; the off-by-one mutations test the bounds themselves.
  const maxLength = Math.min(schema.maxItems ?? 3, Math.max(minLength, 3))
  const items = arbitraryFor(schema.items ?? {}, ctx)
  return schema.uniqueItems
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(items, { minLength, maxLength })
}

const ABSENT = Symbol('absent')

/** The declared properties; each optional one present half the time (fc.record keeps most of them). */
function declared(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(schema.required ?? [])
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    const own = arbitraryFor(sub, ctx, name)
    model[name] = required.has(name) ? own : fc.option(own, { nil: ABSENT, freq: 2 })
  }
  return fc
    .record(model)
    .map((record) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ABSENT)))
}

/** `minProperties` (PATCH bodies: at least one field) on top of what the properties make. */
function objectFor(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<unknown> {
  const min = schema.minProperties ?? 0
  const made = propertiesFor(schema, ctx)
  return min > 0 ? made.filter((o) => Object.keys(o).length >= min) : made
}

function propertiesFor(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<Record<string, unknown>> {
  const fixed = declared(schema, ctx)
  const [pattern, valueSchema] = Object.entries(schema.patternProperties ?? {})[0] ?? []
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : valueSchema
  if (!extra) return fixed
  const keyLength = Math.min(schema.propertyNames?.maxLength ?? 20, 20)
  const key = pattern
    ? fc.stringMatching(new RegExp(pattern)).filter((k) => k.length <= keyLength)
    : fc.string({ minLength: 1, maxLength: keyLength })
  const free = fc.dictionary(key, arbitraryFor(extra, ctx), {
    maxKeys: Math.min(schema.maxProperties ?? 4, 4),
    noNullPrototype: true,
  })
  return fc.tuple(fixed, free).map(([a, b]) => ({ ...b, ...a }))
}

function byType(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => arbitraryFor(s, ctx)))
  const types = [schema.type ?? []].flat()
  if (types.length > 1) return fc.oneof(...types.map((type) => byType({ ...schema, type }, ctx)))
  switch (types[0]) {
    case 'string':
      return stringFor(schema, ctx)
    case 'integer':
      return numberFor(schema, true)
    case 'number':
      return numberFor(schema, false)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return arrayFor(schema, ctx)
    case 'object':
      return objectFor(schema, ctx)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** A value valid for `schema`; `name` is the property it fills, for the context's hints. */
export function arbitraryFor(schema: JsonSchema, ctx: GenContext, name?: string): fc.Arbitrary<unknown> {
  const own = byType(schema, ctx)
  const hint = name === undefined ? undefined : ctx.hints[name]
  return hint ? fc.oneof({ weight: 1, arbitrary: own }, { weight: 4, arbitrary: hint(own) }) : own
}
