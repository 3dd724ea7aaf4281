// Which route app.inject reaches for a generated method and URL, and so which error codes its answer
// may carry; and requests of any method on any path, known or not.
import fc from 'fast-check'
import { type AnyRoute, routeErrorCodes } from '../../src/http/define-route.ts'
import { type FuzzRequest, fuzzRequest } from './fuzz-request.ts'
import type { World } from './world.ts'

/** The route Fastify answers `url` with: dot segments resolved as app.inject resolves them. */
export function routeFor(routes: AnyRoute[], method: string, url: string): AnyRoute | undefined {
  const path = new URL(url, 'http://fuzz.invalid').pathname.split('/')
  const wanted = method === 'HEAD' ? 'GET' : method
  return routes.find((route) => {
    const pattern = route.url.split('/')
    return (
      route.method === wanted &&
      pattern.length === path.length &&
      pattern.every((p, i) => p.startsWith(':') || p === path[i])
    )
  })
}

/** Codes the answer may carry: the matched route's, or only `resource_not_found` when none matches. */
export function allowedCodes(routes: AnyRoute[], request: FuzzRequest): ReadonlySet<string> {
  const route = routeFor(routes, request.method, request.url)
  return new Set<string>(route ? routeErrorCodes(route) : ['resource_not_found'])
}

const SEGMENTS = [
  'v1',
  'v2',
  'templates',
  'submissions',
  'submitters',
  'events',
  'health',
  'x',
  '..',
  '%2e%2e',
  '%00',
  '',
]

/** Any method on any path, known or not; routeFor decides which codes the answer may carry. */
export function anyRouteRequests(world: World, routes: AnyRoute[]): fc.Arbitrary<FuzzRequest> {
  const known = [...world.seeds.paths, ...routes.map((r) => r.url)]
  const path = fc.oneof(
    fc.constantFrom(...known),
    // Not `//…`: app.inject would read it as a URL with a host.
    fc
      .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 })
      .map((s) => `/${s.join('/')}`.replace(/^\/+/, '/')),
  )
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS')
  return fc.tuple(method, path, fc.boolean()).map(([m, url, authed]) =>
    fuzzRequest({
      family: 'unknown-route',
      note: 'any method on any path',
      method: m,
      url,
      headers: authed ? { authorization: `Bearer ${world.key}` } : {},
    }),
  )
}
