// JSON Schema (the OpenAPI 3.1 components of docs/openapi.yaml) → Python type declarations for the
// Python SDK's generated module (sdks/python/README.md, docs/decisions/0015-python-sdk.md):
// an object with properties becomes a TypedDict (optional keys NotRequired), anything else a type
// alias written as a string (so the order of declarations never matters at run time).
export type Schema = { [key: string]: unknown }

const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
)

export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')
}

export function pyString(value: unknown): string {
  return JSON.stringify(value)
}

/** A JSON value as a Python literal (a Literal[...] member). */
function pyLiteral(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  return value === null ? 'None' : JSON.stringify(value)
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)]
  if (unique.includes('Any')) return 'Any'
  const none = unique.includes('None')
  const rest = unique.filter((p) => p !== 'None')
  return [...rest, ...(none ? ['None'] : [])].join(' | ') || 'Any'
}

/** The declarations made so far, each once, in the order first needed. */
export class PythonTypes {
  readonly #components: Record<string, Schema>
  readonly #declared = new Map<string, string>()
  readonly #taken = new Set<string>()

  constructor(components: Record<string, Schema>) {
    this.#components = components
  }

  /** Python source of every declaration, in order. */
  declarations(): string[] {
    return [...this.#declared.values()]
  }

  /** The schema a `#/components/schemas/…` reference names. */
  resolve(ref: string): Schema {
    const schema = this.#components[ref.split('/').pop()!]
    if (!schema) throw new Error(`unknown reference ${ref}`)
    return schema
  }

  /** The Python name of a component, declared on first use. */
  component(name: string): string {
    if (this.#taken.has(name)) return name
    const schema = this.#components[name]
    if (!schema) throw new Error(`unknown component ${name}`)
    this.#taken.add(name)
    this.#declare(name, schema)
    return name
  }

  /** The Python type of a schema; `hint` names the TypedDicts an inline object makes. */
  typeOf(schema: Schema, hint: string): string {
    const ref = schema.$ref
    if (typeof ref === 'string') return this.component(ref.split('/').pop()!)
    if ('const' in schema) return this.#withNull(`Literal[${pyLiteral(schema.const)}]`, schema)
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((v) => v !== null)
      const literal = values.length ? `Literal[${values.map(pyLiteral).join(', ')}]` : 'None'
      return union([literal, ...(schema.enum.includes(null) ? ['None'] : [])])
    }
    const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
    if (options) {
      return union(
        options.map((option, i) => this.typeOf(option, options.length > 1 ? `${hint}${i + 1}` : hint)),
      )
    }
    if (Array.isArray(schema.allOf)) return this.typeOf(mergeAll(schema.allOf as Schema[]), hint)
    const types = Array.isArray(schema.type)
      ? (schema.type as string[])
      : schema.type
        ? [schema.type as string]
        : []
    if (!types.length) return schema.properties ? this.#single('object', schema, hint) : 'Any'
    return union(types.map((type) => (type === 'null' ? 'None' : this.#single(type, schema, hint))))
  }

  #withNull(type: string, schema: Schema): string {
    return Array.isArray(schema.type) && schema.type.includes('null') ? `${type} | None` : type
  }

  #single(type: string, schema: Schema, hint: string): string {
    switch (type) {
      case 'string':
        return 'str'
      case 'integer':
        return 'int'
      case 'number':
        return 'float'
      case 'boolean':
        return 'bool'
      case 'array':
        return `list[${this.typeOf((schema.items as Schema | undefined) ?? {}, `${hint}Item`)}]`
      case 'object':
        return this.#object(schema, hint)
      default:
        return 'Any'
    }
  }

  #object(schema: Schema, hint: string): string {
    if (schema.properties) {
      const name = this.#freeName(hint)
      this.#typedDict(name, schema)
      return name
    }
    const extra = schema.additionalProperties ?? Object.values((schema.patternProperties as Schema) ?? {})[0]
    if (extra && typeof extra === 'object')
      return `dict[str, ${this.typeOf(extra as Schema, `${hint}Value`)}]`
    return 'dict[str, Any]'
  }

  #freeName(hint: string): string {
    let name = pascal(hint)
    for (let n = 2; this.#taken.has(name) || name in this.#components; n++) name = `${pascal(hint)}${n}`
    this.#taken.add(name)
    return name
  }

  #declare(name: string, schema: Schema): void {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type]
    if (schema.properties && types.length === 1 && !schema.anyOf) {
      this.#typedDict(name, schema)
      return
    }
    this.#declared.set(name, '') // reserve the place: declarations keep the order of first use
    const alias = this.typeOf({ ...schema, title: undefined }, `${name}Object`)
    this.#declared.set(name, `${name}: TypeAlias = ${pyString(alias)}\n${docstring(schema)}`)
  }

  #typedDict(name: string, schema: Schema): void {
    this.#declared.set(name, '')
    const required = new Set((schema.required as string[] | undefined) ?? [])
    const fields = Object.entries(schema.properties as Record<string, Schema>).map(([key, property]) => {
      const type = this.typeOf(property, `${name}${pascal(key)}`)
      return [key, required.has(key) ? type : `NotRequired[${type}]`] as const
    })
    const plain = fields.every(([key]) => PY_IDENTIFIER.test(key) && !PY_KEYWORDS.has(key))
    const doc = docstring(schema)
    const source = plain
      ? [
          `class ${name}(TypedDict):`,
          doc ? `    ${doc.trimEnd()}` : '',
          ...fields.map(([k, t]) => `    ${k}: ${t}`),
        ]
      : [
          `${name} = TypedDict(${pyString(name)}, {${fields.map(([k, t]) => `${pyString(k)}: ${pyString(t)}`).join(', ')}})`,
        ]
    if (plain && !fields.length) source.push('    pass')
    this.#declared.set(name, `${source.filter(Boolean).join('\n')}\n`)
  }
}

/** The first sentence of a schema's description, as a Python docstring line. */
function docstring(schema: Schema): string {
  const text = typeof schema.description === 'string' ? schema.description : ''
  const first = text
    .split(/(?<=\.)\s/)[0]
    ?.replace(/\s+/g, ' ')
    .trim()
  return first ? `${pyString(first)}\n` : ''
}

/** allOf of objects: their properties and required keys together. */
function mergeAll(parts: Schema[]): Schema {
  const properties: Record<string, Schema> = {}
  const required: string[] = []
  for (const part of parts) {
    Object.assign(properties, part.properties ?? {})
    required.push(...((part.required as string[] | undefined) ?? []))
  }
  return { type: 'object', properties, required }
}
