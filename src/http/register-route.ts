// Turns a RouteDefinition into a Fastify route: auth and rate limit, or a signer's route's limit per
// address (onRequest), the Idempotency-Key header (preValidation), schema validation, then the
// handler with its transaction helper.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Deps } from '../deps.ts'
import { limitByAddress } from './address-limit.ts'
import { type AuthStrategies, authenticate } from './auth.ts'
import type { AuthenticatedKey } from './caller.ts'
import {
  type AnyRoute,
  answerStatus,
  type HandlerInput,
  successSchema,
  successStatus,
} from './define-route.ts'
import {
  type Claim,
  claimIdempotencyKey,
  completeIdempotencyKey,
  fingerprint,
  holdClaim,
  readIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency.ts'
import { queryCheck } from './query-checks.ts'
import { type RegisteredRoute, routeTableOf } from './route-table.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The matched route's definition; null for unknown routes. */
    route: AnyRoute | null
    scope: AuthenticatedKey | null
    idempotencyKey: string | null
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** Sent on every response. */
export const COMMON_HEADERS = { 'x-content-type-options': 'nosniff' }

/**
 * A deprecated route's headers: `Deprecation` as an RFC 9745 structured-field date (`@` and Unix
 * seconds), `Sunset` as an RFC 8594 HTTP-date, and the link under both relations.
 */
export function deprecationHeaders(deprecated: NonNullable<AnyRoute['deprecated']>): Record<string, string> {
  for (const date of [deprecated.since, deprecated.sunset]) {
    // Registration refuses a typo rather than sending `@NaN` or `Invalid Date` on every answer.
    if (Number.isNaN(new Date(date).getTime())) throw new Error(`deprecated: not an ISO 8601 date: ${date}`)
  }
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(new Date(deprecated.since).getTime() / 1000)}`,
    sunset: new Date(deprecated.sunset).toUTCString(),
  }
  if (deprecated.link)
    headers.link = `<${deprecated.link}>; rel="deprecation", <${deprecated.link}>; rel="sunset"`
  return headers
}

function onRequestHook(route: AnyRoute, deps: Deps, auth: AuthStrategies) {
  const fixed = {
    ...COMMON_HEADERS,
    ...(route.deprecated ? deprecationHeaders(route.deprecated) : {}),
    ...route.headers,
  }
  // First, so every answer of the route (refusals included) names its request.
  const identify = (request: FastifyRequest, reply: FastifyReply) => {
    request.route = route
    reply.header('request-id', request.id)
    reply.headers(fixed)
  }
  if (route.auth === 'none' && route.perIpLimit) {
    const limitRequest = limitByAddress(deps)
    return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      identify(request, reply)
      limitRequest(request, reply, done)
    }
  }
  if (route.auth === 'none') {
    return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      identify(request, reply)
      done()
    }
  }
  // One hook rather than two: each hook Fastify runs costs a little on every request.
  const authenticateRequest = authenticate(deps, auth[route.auth ?? 'api_key'])
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    identify(request, reply)
    authenticateRequest(request, reply, done)
  }
}

type Transaction = HandlerInput<never>['transaction']

function handlerInput(
  request: FastifyRequest,
  reply: FastifyReply,
  transaction: Transaction,
  routes: readonly RegisteredRoute[],
): HandlerInput<never> {
  return {
    params: request.params as never,
    query: request.query as never,
    body: request.body as never,
    scope: request.scope as AuthenticatedKey,
    requestId: request.id,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    headers: request.headers,
    reply,
    transaction,
    routes,
  }
}

function send(route: AnyRoute, reply: FastifyReply, result: unknown): FastifyReply {
  // A page-producing handler may have chosen its status (an error page); JSON routes never do.
  if (!(route.produces && reply.statusCode !== 200)) reply.code(answerStatus(route, result))
  // A route that produces files may name the type of the one it sends (a PNG among PDFs).
  if (route.produces && !reply.hasHeader('content-type')) reply.type(route.produces)
  return reply.send(result)
}

/**
 * A route without Idempotency-Key: the handler's value is sent as it comes, with no promise of our
 * own in between (a synchronous handler answers within this call).
 */
function answer(
  route: AnyRoute,
  deps: Deps,
  transaction: Transaction,
  routes: readonly RegisteredRoute[],
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const result = route.handler(handlerInput(request, reply, transaction, routes), deps)
  if (result instanceof Promise) return result.then((value) => send(route, reply, value))
  send(route, reply, result)
  return undefined
}

/** An idempotent route: claim the key, run the handler, store its response with what it created. */
async function answerOnce(
  route: AnyRoute,
  deps: Deps,
  routes: readonly RegisteredRoute[],
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let claim: Claim | undefined
  if (request.scope && request.idempotencyKey) {
    const outcome = await claimIdempotencyKey(deps.db, deps.clock, {
      accountId: request.scope.accountId,
      environment: request.scope.environment,
      route: `${route.method} ${route.url}`,
      key: request.idempotencyKey,
      fingerprint: fingerprint(request.body),
    })
    if (outcome.kind === 'replay') {
      return reply
        .code(outcome.status)
        .header('idempotent-replayed', 'true')
        .type(JSON_TYPE)
        .send(outcome.body)
    }
    claim = outcome.claim
  }
  const stopRenewing = claim ? holdClaim(deps.db, deps.clock, claim) : undefined
  let stored: string | undefined
  const transaction: Transaction = (work) =>
    deps.db.transaction().execute(async (tx) => {
      const result = await work(tx)
      if (claim) {
        const status = answerStatus(route, result)
        const body = String(reply.code(status).serialize(result))
        await completeIdempotencyKey(tx, claim, status, body)
        stored = body
      }
      return result
    })
  try {
    const result = await route.handler(handlerInput(request, reply, transaction, routes), deps)
    const status = answerStatus(route, result)
    if (claim && stored === undefined) {
      const body = String(reply.code(status).serialize(result))
      await deps.db.transaction().execute((tx) => completeIdempotencyKey(tx, claim, status, body))
      stored = body
    }
    if (stored === undefined || route.produces) return send(route, reply, result)
    return reply.code(status).type(JSON_TYPE).send(stored)
  } catch (error) {
    // Nothing was created (the transaction rolled back): free the key so the client's retry runs.
    if (claim) {
      await releaseIdempotencyKey(deps.db, claim).catch((e: unknown) =>
        request.log.error({ err: e, request_id: request.id }, 'could not release idempotency key'),
      )
    }
    throw error
  } finally {
    stopRenewing?.()
  }
}

/** Checks on the raw request before schema validation: the query's text, the Idempotency-Key header. */
function preValidation(route: AnyRoute) {
  const checkQuery = queryCheck(route)
  if (!checkQuery && !route.idempotent) return undefined
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    try {
      checkQuery?.(request)
      if (route.idempotent) request.idempotencyKey = readIdempotencyKey(request.headers['idempotency-key'])
      done()
    } catch (error) {
      done(error as Error)
    }
  }
}

/** `auth`: the ways to call (http/auth.ts), by the `auth` a route declares; app.ts supplies them. */
export function registerRoute(app: FastifyInstance, route: AnyRoute, deps: Deps, auth: AuthStrategies): void {
  const status = successStatus(route)
  // Without an idempotency key to store, a transaction is the same for every request: made once.
  const plainTransaction: Transaction = (work) => deps.db.transaction().execute(work)
  const routes = routeTableOf(app)
  routes.push({ method: route.method, url: route.url })
  app.route({
    method: route.method,
    url: route.url,
    bodyLimit: route.bodyLimit,
    schema: {
      ...(route.schema.params && { params: route.schema.params }),
      ...(route.schema.querystring && { querystring: route.schema.querystring }),
      ...(route.schema.body && { body: route.schema.body }),
      ...(!route.produces && {
        response: {
          [status]: successSchema(route),
          ...(route.alternative && { [route.alternative.status]: route.alternative.schema }),
        },
      }),
    },
    onRequest: onRequestHook(route, deps, auth),
    preValidation: preValidation(route),
    handler: route.idempotent
      ? (request, reply) => answerOnce(route, deps, routes, request, reply)
      : (request, reply) => answer(route, deps, plainTransaction, routes, request, reply),
  })
}
