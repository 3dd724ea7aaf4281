// GET / from a person's browser leads to the console (docs/console.md): someone who types the
// server's address lands on the sign-in page rather than on a JSON error. Programs keep what they
// had: for `Accept: application/json`, `*/*` or none, `/` stays an unknown route, the JSON 404
// naming /openapi.yaml. Not a route, then: the public OpenAPI describes the API, not this page.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { COMMON_HEADERS } from '../../http/register-route.ts'
import { prefersHtml } from '../../lib/prefers-html.ts'

export const CONSOLE_HOME = '/console/'

/**
 * For the unknown-route handler: redirects a browser's GET or HEAD of `/` to the console (302) and
 * says so; marks any answer about `/` as varying by Accept (a cache must not replay one to the other).
 */
export function redirectBrowserAtRoot(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.url.split('?')[0] !== '/' || (request.method !== 'GET' && request.method !== 'HEAD'))
    return false
  reply.header('vary', 'Accept')
  if (!prefersHtml(request.headers.accept)) return false
  reply.headers({ 'request-id': request.id, ...COMMON_HEADERS, location: CONSOLE_HOME })
  reply.code(302).send()
  return true
}
