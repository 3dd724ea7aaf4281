// BOLA (docs/api.md#keys): every route of API_ROUTES with an `:id` answers a resource of another
// account or of the other environment exactly as it answers an id that does not exist, and every
// list shows only the caller's rows. The route list is read at run time, so a new route is covered
// at once (and fails here until it has a fixture for its id prefix).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { API_ROUTES } from '../src/app.ts'
import type { AnyRoute } from '../src/http/define-route.ts'
import { jobCatalogue } from '../src/job-catalogue.ts'
import { drainJobs } from '../src/jobs/worker.ts'
import { createTemplateFor, post } from './documents.ts'
import { errorOf, startTestApp, type TestApp } from './harness.ts'

type Fixture = Record<string, string>

/** The id prefix a route's `:id` accepts, read from its params schema (`^sub_[0-9A-Za-z]{24}$`). */
function idPrefix(route: AnyRoute): string {
  const pattern = (route.schema.params as { properties?: { id?: { pattern?: string } } } | undefined)
    ?.properties?.id?.pattern
  const prefix = pattern && /^\^([a-z]+)_/.exec(pattern)?.[1]
  assert.ok(prefix, `${route.method} ${route.url}: no id pattern in its params schema`)
  return prefix
}

/** A body the handler accepts, for routes with `:id` that take one (others get `{}`). */
const BODIES: Record<string, unknown> = { updateSubmitter: { name: 'Mallory' } }

const ID_ROUTES = API_ROUTES.filter((r) => r.url.split('/').includes(':id'))
const LIST_ROUTES = API_ROUTES.filter(
  (r) =>
    r.method === 'GET' &&
    !r.url.includes(':') &&
    (r.schema.querystring as { properties?: Record<string, unknown> } | undefined)?.properties?.cursor,
)

describe('scoping (BOLA)', () => {
  let t: TestApp
  let owner: Awaited<ReturnType<TestApp['account']>>
  let other: Awaited<ReturnType<TestApp['account']>>
  /** Resources by key: the owner's test and live environments, and another account's test one. */
  const fixtures = new Map<string, Fixture>()

  /** One resource of each kind a route names by id, created through the API with `key`. */
  async function createFixture(key: string): Promise<Fixture> {
    // A public IP literal: accepted without DNS; never called (only foreign ids are probed).
    const hook = await t.request(key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: 'https://93.184.216.34/hook', events: ['submission.created'] },
    })
    assert.equal(hook.statusCode, 201, hook.body)
    const tpl = await createTemplateFor(t, key)
    const res = await post(t, key, '/v1/submissions', {
      template_id: tpl,
      submitters: [
        { role: 'first', email: 'ann@example.eu', fields: { 'First name': 'Ann' } },
        { role: 'second', email: 'bob@example.eu' },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    const created = res.json()
    const bulk = await post(t, key, '/v1/bulk_sends', {
      template_id: tpl,
      send_email: false,
      rows: [
        {
          submitters: [
            { role: 'first', email: 'cy@example.eu' },
            { role: 'second', email: 'di@example.eu' },
          ],
        },
      ],
    })
    assert.equal(bulk.statusCode, 202, bulk.body)
    const hold = await t.request(key, {
      method: 'POST',
      url: '/v1/legal_holds',
      payload: { submission_ids: [created.id], reason: 'Scoping fixture' },
    })
    assert.equal(hold.statusCode, 201, hold.body)
    const erasure = await post(t, key, '/v1/privacy/erasures', { email: 'ann@example.eu' })
    assert.equal(erasure.statusCode, 202, erasure.body)
    // events.publish makes the endpoint's delivery of submission.created (no dispatcher runs).
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    const whk = hook.json().id
    const delivery = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', whk)
      .executeTakeFirstOrThrow()
    return {
      tpl,
      sub: created.id,
      sbm: created.submitters[1].id,
      whk,
      dlv: delivery.id,
      bulk: bulk.json().id,
      hold: hold.json().id,
      era: erasure.json().id,
    }
  }

  /** `other`: the resource of a second path parameter (`:delivery_id`), from the same holder. */
  const call = (route: AnyRoute, key: string, id: string, other: Fixture = {}) => {
    const body = BODIES[route.operationId]
    return t.request(key, {
      method: route.method,
      url: route.url.replace(':id', id).replace(':delivery_id', other.dlv ?? ''),
      ...(route.method === 'GET' || route.method === 'DELETE'
        ? {}
        : {
            payload: JSON.stringify(body ?? {}),
            headers: { 'content-type': 'application/json', 'idempotency-key': `scoping-${id}` },
          }),
    })
  }

  /** The response with the one thing the client chose, the id it sent, blanked. */
  const normalized = (res: LightMyRequestResponse, id: string) => ({
    status: res.statusCode,
    contentType: res.headers['content-type'],
    body: res.body.split(id).join('<id>'),
  })

  const ownerSeesIntact = async (fixture: Fixture, key: string) => {
    const get = (url: string) => t.request(key, { method: 'GET', url })
    assert.equal((await get(`/v1/templates/${fixture.tpl}`)).json().status, 'active')
    const submission = (await get(`/v1/submissions/${fixture.sub}`)).json()
    assert.equal(submission.status, 'sent')
    assert.equal(submission.cancelled_at, null)
    assert.equal((await get(`/v1/submitters/${fixture.sbm}`)).json().status, 'pending')
    assert.equal((await get(`/v1/webhook_endpoints/${fixture.whk}`)).json().active, true)
  }

  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_TEST: '100000', RATE_LIMIT_LIVE: '100000' } })
    owner = await t.account('owner')
    other = await t.account('other')
    for (const key of [owner.testKey, owner.liveKey, other.testKey])
      fixtures.set(key, await createFixture(key))
  })
  after(() => t.close())

  it('covers every route with an :id and every list route', () => {
    assert.ok(ID_ROUTES.length >= 6, ID_ROUTES.map((r) => r.url).join(', '))
    assert.ok(LIST_ROUTES.length >= 4, LIST_ROUTES.map((r) => r.url).join(', '))
  })

  describe('security: routes with an :id', () => {
    for (const route of ID_ROUTES) {
      it(`${route.method} ${route.url}: 404 resource_not_found for another account's or environment's resource, identical to an unknown id`, async () => {
        const prefix = idPrefix(route)
        // Who probes whose resource: another account (both environments), then the owner across environments.
        const probes: Array<[string, string, string]> = [
          [other.testKey, owner.testKey, "another account's test key"],
          [other.liveKey, owner.testKey, "another account's live key"],
          [owner.liveKey, owner.testKey, "the owner's live key on a test resource"],
          [owner.testKey, owner.liveKey, "the owner's test key on a live resource"],
        ]
        for (const [probe, holder, who] of probes) {
          const id = fixtures.get(holder)?.[prefix]
          assert.ok(id, `no fixture for \`${prefix}\` ids: add one to createFixture in test/scoping.test.ts`)
          const unknownId = `${prefix}_${'Z'.repeat(24)}`
          const unknown = await call(route, probe, unknownId, fixtures.get(holder))
          assert.equal(unknown.statusCode, 404, `${who}, unknown id: ${unknown.body}`)
          assert.equal(errorOf(unknown).code, 'resource_not_found')
          const foreign = await call(route, probe, id, fixtures.get(holder))
          assert.equal(foreign.statusCode, 404, `${who}: ${foreign.body}`)
          assert.equal(errorOf(foreign).code, 'resource_not_found')
          assert.deepEqual(normalized(foreign, id), normalized(unknown, unknownId), who)
        }
        await ownerSeesIntact(fixtures.get(owner.testKey)!, owner.testKey)
        await ownerSeesIntact(fixtures.get(owner.liveKey)!, owner.liveKey)
      })
    }
  })

  describe('security: list routes', () => {
    for (const route of LIST_ROUTES) {
      it(`${route.method} ${route.url}: 200 shows only the caller's account and environment`, async () => {
        const viewers: Array<[string, string]> = [
          [owner.testKey, 'owner, test'],
          [owner.liveKey, 'owner, live'],
          [other.testKey, 'other account, test'],
          [other.liveKey, 'other account, live (no rows)'],
        ]
        // Request logs: a key's own paths name the foreign ids it probed above; its rows
        // are its requests, so each holder's latest request id stands for its rows.
        const logs = route.operationId === 'listRequestLogs'
        const latest = new Map<string, string>()
        if (logs) {
          for (const key of fixtures.keys()) {
            const ping = await t.request(key, { method: 'GET', url: '/v1/health' })
            latest.set(key, String(ping.headers['request-id']))
          }
          await t.deps.requestLogs.flush()
        }
        for (const [key, who] of viewers) {
          const res = await t.request(key, { method: 'GET', url: `${route.url}?limit=100` })
          assert.equal(res.statusCode, 200, `${who}: ${res.body}`)
          assert.ok(Array.isArray(res.json().data))
          for (const [holder, fixture] of fixtures) {
            const ids = logs ? [latest.get(holder)!] : Object.values(fixture)
            const shown = ids.filter((id) => res.body.includes(id))
            if (holder === key) assert.ok(shown.length > 0, `${who}: its own rows are listed`)
            else assert.deepEqual(shown, [], `${who} sees rows of another account or environment`)
          }
        }
      })
    }
  })
})
