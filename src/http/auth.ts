// api-v1 §5 then §8: who is calling, then whether they may call now. Runs first on every API route
// (security-notes: auth → rate limit → idempotency → handler), so even 404, 413 and 422 answers
// carry the rate-limit headers.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthenticatedKey } from '../accounts/account-store.ts'
import { parseApiKey } from '../accounts/api-keys.ts'
import { checkConsoleRequest, consoleCaller, readSessionCookie } from '../console/access/console-auth.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { type RateLimitDecision, retryAfterSeconds, setRateLimitHeaders } from './rate-limit.ts'

const BEARER = /^Bearer +(\S+) *$/i

export function readBearerKey(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw new ApiError(
      'missing_api_key',
      'No API key: send the header `Authorization: Bearer sk_test_…` (or sk_live_…).',
    )
  }
  const key = BEARER.exec(header)?.[1]
  if (key === undefined || parseApiKey(key) === null) {
    throw new ApiError(
      'invalid_api_key',
      'Malformed API key: expected `Authorization: Bearer sk_test_…` or `Bearer sk_live_…` with 32 letters or digits.',
    )
  }
  return key
}

function admit(
  deps: Deps,
  key: AuthenticatedKey,
  decision: RateLimitDecision,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  request.scope = key
  setRateLimitHeaders(reply, decision)
  if (decision.allowed) return
  const wait = retryAfterSeconds(decision, deps.clock.now())
  throw new ApiError(
    'rate_limit_exceeded',
    `Rate limit of ${decision.limit} requests per minute reached for this key; retry in ${wait} s.`,
    { 'retry-after': String(wait) },
  )
}

async function authenticateSlowly(
  deps: Deps,
  presented: string,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const key = await deps.keyCache.find(presented)
  if (!key) throw new ApiError('invalid_api_key', 'Unknown or revoked API key.')
  admit(deps, key, await deps.rateLimiter.consume(key.keyId, key.environment), request, reply)
}

/**
 * The console's session cookie (console contract): the member's scope, counted per member with the
 * environment's limit, then the CSRF token and Origin of a write and the route's role.
 */
async function authenticateConsole(deps: Deps, token: string, request: FastifyRequest, reply: FastifyReply) {
  const caller = await consoleCaller(deps, token)
  admit(
    deps,
    caller.scope,
    await deps.rateLimiter.consume(caller.scope.keyId, caller.scope.environment),
    request,
    reply,
  )
  checkConsoleRequest(deps, request, caller, request.route)
}

/** A /console/api route: the session cookie only (an API key does not open the console's own routes). */
export function authenticateConsoleOnly(deps: Deps) {
  return function authenticateConsoleRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ) {
    const token = readSessionCookie(request.headers.cookie)
    if (token === undefined) {
      done(new ApiError('console_session_required', 'Sign in to the console first (/console/sign-in).'))
      return
    }
    authenticateConsole(deps, token, request, reply).then(() => done(), done)
  }
}

/** `Bearer ` as clients send it: the key follows at this offset. */
const BEARER_PREFIX = 'Bearer '

/**
 * A callback-style hook: a cached key with in-process counters (the common case) is admitted with
 * no promise at all; anything else takes the async path.
 */
export function authenticate(deps: Deps) {
  return function authenticateRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ) {
    try {
      const header = request.headers.authorization
      // The cache holds only keys that exist, so a hit on the usual `Bearer <key>` form needs no
      // format check; anything else is parsed (and refused with its precise error) first.
      let key = header?.startsWith(BEARER_PREFIX)
        ? deps.keyCache.peek(header.slice(BEARER_PREFIX.length))
        : undefined
      if (!key) {
        // No key at all: the console's cookie, if any (an Authorization header always wins).
        const token = header === undefined ? readSessionCookie(request.headers.cookie) : undefined
        if (token !== undefined) {
          authenticateConsole(deps, token, request, reply).then(() => done(), done)
          return
        }
        const presented = readBearerKey(header)
        key = deps.keyCache.peek(presented)
        if (!key) {
          authenticateSlowly(deps, presented, request, reply).then(() => done(), done)
          return
        }
      }
      const admitted = key
      const decision = deps.rateLimiter.consume(admitted.keyId, admitted.environment)
      if (decision instanceof Promise) {
        decision.then((shared) => admit(deps, admitted, shared, request, reply)).then(() => done(), done)
        return
      }
      admit(deps, admitted, decision, request, reply)
      done()
    } catch (error) {
      done(error as Error)
    }
  }
}
