// Requests for one route, in three families: valid (generated from the route's own schemas),
// near-valid (one mutation of a valid request) and hostile (hostile-requests.ts).
import fc from 'fast-check'
import type { FuzzRequest } from './fuzz-request.ts'
import { hostile } from './hostile-requests.ts'
import { mutate, mutationPlan } from './mutations.ts'
import type { JsonSchema } from './schema-arbitrary.ts'
import { finish, type Parts, paramNames, partsFor, schema, type Target, wireOf } from './wire.ts'

function nearValid(t: Target): fc.Arbitrary<FuzzRequest> {
  const names = paramNames(t.route.url)
  const where = ['query', ...(names.length > 0 ? ['params'] : []), ...(t.route.schema.body ? ['body'] : [])]
  return fc.tuple(partsFor(t), fc.constantFrom(...where), mutationPlan).map(([parts, part, plan]) => {
    if (part === 'params') {
      const name = names[plan.pick % names.length]!
      const m = mutate(parts.params[name], schema(t.route.schema.params)?.properties?.[name], plan)
      return finish(
        t,
        wireOf(t, { ...parts, params: { ...parts.params, [name]: m.value } }),
        'near-valid',
        `path ${name}: ${m.note}`,
      )
    }
    const own = part === 'query' ? t.route.schema.querystring : t.route.schema.body
    const fallback: JsonSchema = { type: 'object', additionalProperties: false }
    const m = mutate(parts[part as 'query' | 'body'], schema(own) ?? fallback, plan)
    const changed = { ...parts, [part]: m.value } as Parts
    return finish(t, wireOf(t, changed), 'near-valid', `${part}: ${m.note}`)
  })
}

/** Requests for one route: 30 % valid, 30 % near-valid, 40 % hostile. */
export function requestsFor(t: Target): fc.Arbitrary<FuzzRequest> {
  const valid = partsFor(t).map((p) => finish(t, wireOf(t, p), 'valid', 'generated from the schema'))
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 3, arbitrary: nearValid(t) },
    { weight: 4, arbitrary: hostile(t) },
  )
}
