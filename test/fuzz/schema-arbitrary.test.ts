import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { bodyAjv } from '../../src/http/validation.ts'
import { copyJson } from './json-tree.ts'
import { hints } from './known-values.ts'
import { mutate } from './mutations.ts'
import { arbitraryFor, type GenContext, type JsonSchema } from './schema-arbitrary.ts'
import { fuzzedRoutes } from './world.ts'

const PARTS = ['params', 'querystring', 'body'] as const
const schemas = fuzzedRoutes().flatMap((route) =>
  PARTS.filter((part) => route.schema[part]).map((part) => ({
    name: `${route.method} ${route.url} ${part}`,
    schema: route.schema[part] as JsonSchema,
  })),
)

/** The app's own verdict; a copy, as Ajv's useDefaults writes into the value. */
const accepts = (schema: JsonSchema, value: unknown) => bodyAjv.compile(schema)(copyJson(value)) === true

describe('schema-arbitrary: valid values are what the app validates as valid', () => {
  const contexts: Array<{ label: string; ctx: GenContext }> = [
    { label: 'from the schema alone', ctx: { ids: {}, hints: {} } },
    {
      label: 'with the hints that reach deeper',
      ctx: { ids: { tpl: ['tpl_4f9XqK2mR8sT1vW3yZ5bC7dE'] }, hints: hints('JVBERi0=') },
    },
  ]
  for (const ctx of contexts) {
    for (const { name, schema } of schemas) {
      it(`${name}, ${ctx.label}`, () => {
        fc.assert(
          fc.property(arbitraryFor(schema, ctx.ctx), (value) => accepts(schema, value)),
          { seed: 1, numRuns: 40 },
        )
      })
    }
  }
})

describe('mutations: one step outside the schema', () => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', maxLength: 3 }, n: { type: 'integer', minimum: 1, maximum: 5 } },
  }
  const valid = { name: 'abc', n: 5 }

  it('off_by_one crosses the bound of the node it picks', () => {
    assert.deepEqual(mutate(valid, schema, { kind: 'off_by_one', pick: 0, alt: 0 }).value, {
      name: 'abcx',
      n: 5,
    })
    assert.deepEqual(mutate(valid, schema, { kind: 'off_by_one', pick: 1, alt: 0 }).value, {
      name: 'abc',
      n: 6,
    })
  })

  it('remove, extra_key, wrong_type and break_rule each make the value invalid here', () => {
    for (const kind of ['remove', 'extra_key', 'wrong_type', 'break_rule'] as const) {
      const { value, note } = mutate(valid, schema, { kind, pick: 0, alt: 0 })
      assert.equal(accepts(schema, value), false, `${note}: ${JSON.stringify(value)}`)
    }
  })

  it('keeps "__proto__" an own key instead of swapping the prototype', () => {
    const { value } = mutate(JSON.parse('{"__proto__":{"b":1}}'), undefined, {
      kind: 'wrong_type',
      pick: 2,
      alt: 0,
    })
    assert.equal(JSON.stringify(value), '{"__proto__":{"b":"text"}}')
    assert.equal(Object.getPrototypeOf(value), Object.prototype)
  })
})
