// Property-based fuzz of every route. Requests are generated from each route's own
// schemas (API_ROUTES and the operational routes, so a new route is fuzzed without touching this file)
// in three families — valid, near-valid (one mutation) and hostile (prototype-named keys, 10 000-deep
// JSON, 1.1 MB strings, U+0000, bytes that are not UTF-8, odd numbers, malformed ids and headers) —
// and sent through app.inject to the real app on PARAPH_TEST_DB. For every response: never a 5xx;
// every 4xx exactly the envelope with a code the route declares; a refused request changes no row;
// and afterwards the process still answers its health checks with no unhandled rejection.
//
// A fixed seed and a bounded count by default, to stay well under a minute per engine. A longer run,
// or another seed (a failure prints the one to re-run with):
//   PARAPH_FUZZ_RUNS=2000 PARAPH_FUZZ_SEED=12345 npm test -- sqlite test/fuzz/routes.fuzz.test.ts
// PARAPH_FUZZ_RUNS counts requests per route (default 100). PARAPH_FUZZ_STATS=1 prints, per route, how
// many answers of each status each family got: how deep the generated requests reach.
import assert from 'node:assert/strict'
import { after, before, describe, it, type TestContext } from 'node:test'
import fc from 'fast-check'
import type { HTTPMethods } from 'fastify'
import { mcpRoutes } from '../../src/mcp/mcp-route.ts'
import { ENGINE, startTestApp, type TestApp } from '../harness.ts'
import { FRESH_KEY, type FuzzRequest, preview } from './fuzz-request.ts'
import { countChanges, responseProblem, rowCounts } from './invariants.ts'
import { requestsFor } from './request-arbitrary.ts'
import { allowedCodes, anyRouteRequests } from './routing.ts'
import { fuzzedRoutes, seedWorld, targetFor, type World } from './world.ts'

const SEED = Number(process.env.PARAPH_FUZZ_SEED ?? 20_261_122)
const RUNS = Number(process.env.PARAPH_FUZZ_RUNS ?? 100)
const STATS = process.env.PARAPH_FUZZ_STATS === '1'
const ROUTES = fuzzedRoutes()

describe('fuzz: every route against generated, near-valid and hostile requests', () => {
  let t: TestApp
  let world: World
  let fresh = 0
  /** `valid 201` → how many answers, for the route being fuzzed. */
  const tally = new Map<string, number>()
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => {
    rejections.push(reason)
  }

  before(async () => {
    process.on('unhandledRejection', onRejection)
    // The fuzz sends thousands of requests a minute with one key.
    t = await startTestApp({ env: { RATE_LIMIT_TEST: '1000000000' } })
    world = await seedWorld(t)
  })
  after(async () => {
    process.off('unhandledRejection', onRejection)
    await t?.close()
  })

  /** Sends one request; throws with the request as sent and the answer when a rule breaks. */
  async function check(request: FuzzRequest): Promise<void> {
    const headers = { ...request.headers }
    if (headers['idempotency-key'] === FRESH_KEY) headers['idempotency-key'] = `fuzz-${++fresh}`
    const sent = { ...request, headers }
    const before = await rowCounts(t.deps.db)
    const response = await t.app.inject({
      method: sent.method as HTTPMethods,
      url: sent.url,
      headers,
      payload: sent.payload,
    })
    const kind = `${sent.family} ${response.statusCode}`
    tally.set(kind, (tally.get(kind) ?? 0) + 1)
    let problem = responseProblem(sent, response, allowedCodes(ROUTES, sent))
    if (!problem && response.statusCode >= 400) problem = countChanges(before, await rowCounts(t.deps.db))
    if (problem) {
      const body = response.body.length > 600 ? `${response.body.slice(0, 600)}…` : response.body
      throw new Error(`${problem}\n${preview(sent)}\nanswer: ${response.statusCode} ${body}`)
    }
  }

  async function fuzz(name: string, requests: fc.Arbitrary<FuzzRequest>, test: TestContext): Promise<void> {
    tally.clear()
    try {
      await fc.assert(fc.asyncProperty(requests, check), {
        seed: SEED,
        numRuns: RUNS,
        includeErrorInReport: true,
      })
    } catch (error) {
      const rerun = `PARAPH_FUZZ_SEED=${SEED} PARAPH_FUZZ_RUNS=${RUNS} npm test -- ${ENGINE} test/fuzz/routes.fuzz.test.ts`
      throw new Error(`${name} (seed ${SEED}): ${(error as Error).message}\nRe-run with: ${rerun}`)
    } finally {
      if (STATS)
        test.diagnostic(
          [...tally]
            .sort()
            .map(([kind, n]) => `${kind}: ${n}`)
            .join(', '),
        )
    }
  }

  it('stays offline: the SSRF guard refuses private addresses, so generated URLs fail fast', () => {
    assert.equal(t.config.allowPrivateNetworkUrls, false)
  })

  for (const route of ROUTES) {
    it(`${route.method} ${route.url}: no 5xx, only declared codes in the envelope, refusals change no row`, async (test) => {
      await fuzz(`${route.method} ${route.url}`, requestsFor(targetFor(route, world)), test)
    })
  }

  it('any method on any path: the matched route’s codes, else 404 resource_not_found', async (test) => {
    await fuzz('any method on any path', anyRouteRequests(world, ROUTES), test)
  })

  it('fuzzes every route the app registers', () => {
    const fuzzed = new Set(ROUTES.map((r) => `${r.method} ${r.url}`))
    // The MCP endpoint answers JSON-RPC, not the envelope these invariants check: its refusals are
    // tested with the MCP SDK's own client (src/mcp/mcp-http.test.ts).
    const mcp = new Set(mcpRoutes(t.app).map((r) => `${r.method} ${r.url}`))
    assert.deepEqual(
      t.app.registeredRoutes.filter((r) => !fuzzed.has(r) && !mcp.has(r)),
      [],
      'routes registered by buildApp but not in fuzzedRoutes() (test/fuzz/world.ts)',
    )
  })

  it('the process stays healthy: /healthz and /v1/health answer 200, no unhandled rejection', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
    assert.equal((await t.request(world.key, { method: 'GET', url: '/v1/health' })).statusCode, 200)
    assert.deepEqual(rejections, [])
  })
})
