// api-v1 §5 then §8: who is calling, then whether they may call now. Runs first on every API route
// (security-notes: auth → rate limit → idempotency → handler), so even 404, 413 and 422 answers
// carry the rate-limit headers.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { findActiveKey } from '../accounts/account-store.ts'
import { parseApiKey } from '../accounts/api-keys.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { rateLimitHeaders, retryAfterSeconds } from './rate-limit.ts'

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

export function authenticate(deps: Deps) {
  return async function authenticateRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = await findActiveKey(deps.db, readBearerKey(request.headers.authorization))
    if (!key) throw new ApiError('invalid_api_key', 'Unknown or revoked API key.')
    request.scope = key
    const decision = await deps.rateLimiter.consume(key.keyId, key.environment)
    reply.headers(rateLimitHeaders(decision))
    if (!decision.allowed) {
      const wait = retryAfterSeconds(decision, deps.clock.now())
      throw new ApiError(
        'rate_limit_exceeded',
        `Rate limit of ${decision.limit} requests per minute reached for this key; retry in ${wait} s.`,
        { 'retry-after': String(wait) },
      )
    }
  }
}
