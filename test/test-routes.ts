// Routes that exist only in tests, to exercise the HTTP layer's reusable options (idempotency,
// ids in paths, bodies, deprecation, failures) before the document routes arrive. Each one goes
// through the same defineRoute/registerRoute as the real routes.
import { Type } from 'typebox'
import { orNotFound } from '../src/errors.ts'
import { appendEvent } from '../src/events/event-store.ts'
import { Id, IdParams } from '../src/http/common-schemas.ts'
import { defineRoute } from '../src/http/define-route.ts'

/** A latch a test opens to let an in-flight request finish. */
export class Gate {
  #open!: () => void
  readonly opened = new Promise<void>((resolve) => {
    this.#open = resolve
  })
  entered = 0
  #onEnter: Array<() => void> = []
  open(): void {
    this.#open()
  }
  enter(): void {
    this.entered++
    for (const f of this.#onEnter.splice(0)) f()
  }
  /** Resolves once a request has reached the gate. */
  waitForEntry(): Promise<void> {
    return this.entered > 0 ? Promise.resolve() : new Promise((resolve) => this.#onEnter.push(resolve))
  }
}

export const gates: { current: Gate | null } = { current: null }

const WidgetBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50 }),
    fail: Type.Optional(Type.Boolean()),
    tags: Type.Optional(
      Type.Array(Type.Object({ label: Type.String({ maxLength: 5 }) }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
)

const Widget = Type.Object({ id: Id('evt'), name: Type.String() })

/** POST /v1/test/widgets: idempotent; "creates" a widget as an event row in one transaction. */
export const createWidget = defineRoute({
  operationId: 'createWidget',
  method: 'POST',
  url: '/v1/test/widgets',
  summary: 'Test-only idempotent creation',
  tag: 'Test',
  idempotent: true,
  schema: { body: WidgetBody, response: { 201: Widget } },
  errors: ['template_archived'],
  handler: async ({ body, scope, transaction }, deps) => {
    const gate = gates.current
    if (gate) {
      gate.enter()
      await gate.opened
    }
    return transaction(async (tx) => {
      const id = await appendEvent(tx, deps, scope, { type: 'submission.created', data: { name: body.name } })
      if (body.fail) throw new Error('boom: internal detail that must not leak')
      return { id, name: body.name }
    })
  },
})

export const KNOWN_WIDGET = `sub_${'a'.repeat(24)}`

/** GET /v1/test/widgets/:id: a path id; only KNOWN_WIDGET exists. */
export const getWidget = defineRoute({
  operationId: 'getWidget',
  method: 'GET',
  url: '/v1/test/widgets/:id',
  summary: 'Test-only path id',
  tag: 'Test',
  schema: { params: IdParams('sub'), response: { 200: Widget } },
  errors: ['resource_not_found'],
  handler: async ({ params }) =>
    orNotFound(params.id === KNOWN_WIDGET ? { id: params.id, name: 'known' } : null, 'widget'),
})

/** GET /v1/test/explode: an unexpected exception. */
export const explode = defineRoute({
  operationId: 'explode',
  method: 'GET',
  url: '/v1/test/explode',
  summary: 'Test-only failure',
  tag: 'Test',
  schema: { response: { 200: Widget } },
  errors: [],
  handler: async () => {
    throw new Error('secret internal detail at /srv/paraph/db.ts')
  },
})

/**
 * GET /v1/test/throw-odd?kind=: throws what is not an Error (`null`), or an object whose
 * properties throw when the error handler reads them (`trap`).
 */
export const throwOdd = defineRoute({
  operationId: 'throwOdd',
  method: 'GET',
  url: '/v1/test/throw-odd',
  summary: 'Test-only odd throws',
  tag: 'Test',
  schema: {
    querystring: Type.Object({ kind: Type.Union([Type.Literal('null'), Type.Literal('trap')]) }),
    response: { 200: Widget },
  },
  errors: [],
  handler: async ({ query }) => {
    if (query.kind === 'null') throw null
    throw new Proxy(
      {},
      {
        get() {
          throw new Error('a property read that throws')
        },
      },
    )
  },
})

/** GET /v1/test/bad-response: a handler whose answer its response schema cannot serialize. */
export const badResponse = defineRoute({
  operationId: 'badResponse',
  method: 'GET',
  url: '/v1/test/bad-response',
  summary: 'Test-only serialization failure',
  tag: 'Test',
  schema: { response: { 200: Widget } },
  errors: [],
  handler: async () => ({ id: KNOWN_WIDGET }) as never,
})

/** GET /v1/test/old: a deprecated route. */
export const oldRoute = defineRoute({
  operationId: 'oldRoute',
  method: 'GET',
  url: '/v1/test/old',
  summary: 'Test-only deprecated route',
  tag: 'Test',
  deprecated: { since: '2026-11-01', sunset: '2027-06-01', link: 'https://paraph.example/changelog#old' },
  schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } },
  errors: [],
  handler: async () => ({ ok: true }),
})

export const TEST_ROUTES = [createWidget, getWidget, explode, throwOdd, badResponse, oldRoute]
