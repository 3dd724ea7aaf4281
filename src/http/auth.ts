// docs/api.md#keys then docs/api.md#rate-limits: who is calling, then whether they may call now.
// Runs first on every API route (auth → rate limit → idempotency → handler:
// docs/security.md#idempotency), so even 404, 413 and 422 answers carry the rate-limit headers. The
// ways to call (an API key, the console's session cookie) are strategies their capabilities supply
// and app.ts hands to every route: this file knows none of them.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import type { AuthenticatedKey } from './caller.ts'
import type { RouteDefinition } from './define-route.ts'
import { isInnerRequest } from './inner-request.ts'
import { type RateLimitDecision, retryAfterSeconds, setRateLimitHeaders } from './rate-limit.ts'

/** One way to call: a credential read from the request, and the caller it names. */
export interface AuthStrategy<Found = AuthenticatedKey> {
  /**
   * What the request's credential of this kind names: at once when that needs no I/O (a cached
   * key), else a promise; undefined when the request carries no credential of this kind (the next
   * strategy is asked). Throws, or rejects, the refusal of a credential that is there but wrong.
   */
  find(request: FastifyRequest): Found | Promise<Found> | undefined
  /** The caller found: counted by the rate limiter, then the handler's scope. */
  caller(found: Found): AuthenticatedKey
  /** Checks once the caller is admitted and counted (the console's CSRF token and route role). */
  check?(request: FastifyRequest, found: Found): void
  /** The refusal when none of a route's strategies finds its credential: the first strategy's. */
  missing(): ApiError
  /**
   * The rate-limit bucket its callers are counted in, instead of their environment's: `mcp` for the
   * MCP endpoint (docs/mcp.md#rate-limits).
   */
  bucket?: 'mcp'
}

// biome-ignore lint/suspicious/noExplicitAny: a list holds strategies of every credential
export type AnyAuthStrategy = AuthStrategy<any>

/**
 * The strategies of each `auth` a route may declare, tried in order: the first that finds its
 * credential decides (an Authorization header is read before a cookie).
 */
export type AuthStrategies = Record<
  Exclude<NonNullable<RouteDefinition['auth']>, 'none'>,
  readonly AnyAuthStrategy[]
>

function admit(
  deps: Deps,
  key: AuthenticatedKey,
  decision: RateLimitDecision,
  request: FastifyRequest,
  reply: FastifyReply,
  bucket: 'mcp' | undefined,
) {
  request.scope = key
  setRateLimitHeaders(reply, decision)
  if (decision.allowed) return
  const wait = retryAfterSeconds(decision, deps.clock.now())
  const what = bucket === 'mcp' ? 'MCP requests' : 'requests'
  throw new ApiError(
    'rate_limit_exceeded',
    `Rate limit of ${decision.limit} ${what} per minute reached for this key; retry in ${wait} s.`,
    { 'retry-after': String(wait) },
  )
}

/**
 * Counts the caller (per key or member, in its environment's bucket or the strategy's own), then the
 * strategy's checks. An inner request of the MCP endpoint is admitted uncounted.
 */
function admitFound(
  deps: Deps,
  strategy: AnyAuthStrategy,
  found: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): undefined | Promise<void> {
  const caller = strategy.caller(found)
  if (isInnerRequest(request)) {
    // A tool of the MCP endpoint calling a route: its MCP request was counted already
    // (http/inner-request.ts).
    request.scope = caller
    strategy.check?.(request, found)
    return undefined
  }
  const decision = deps.rateLimiter.consume(caller.keyId, strategy.bucket ?? caller.environment)
  if (decision instanceof Promise) {
    return decision.then((shared) => {
      admit(deps, caller, shared, request, reply, strategy.bucket)
      strategy.check?.(request, found)
    })
  }
  admit(deps, caller, decision, request, reply, strategy.bucket)
  strategy.check?.(request, found)
  return undefined
}

/**
 * A callback-style hook: a credential found with no I/O (a cached key) and in-process counters (the
 * common case) are admitted with no promise at all; anything else takes the async path.
 */
export function authenticate(deps: Deps, strategies: readonly AnyAuthStrategy[]) {
  const first = strategies[0]
  if (first === undefined) throw new Error('authenticate: no auth strategy given')
  return function authenticateRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ) {
    try {
      for (const strategy of strategies) {
        const found = strategy.find(request)
        if (found === undefined) continue
        const admitted =
          found instanceof Promise
            ? found.then((f) => admitFound(deps, strategy, f, request, reply))
            : admitFound(deps, strategy, found, request, reply)
        if (admitted) admitted.then(() => done(), done)
        else done()
        return
      }
      throw first.missing()
    } catch (error) {
      done(error as Error)
    }
  }
}
