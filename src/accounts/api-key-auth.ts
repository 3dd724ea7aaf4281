// The API key as a way to call (docs/api.md#keys): `Authorization: Bearer sk_test_…` or
// `sk_live_…`, looked up in the key cache. app.ts hands this strategy to every API route, before
// the console's cookie: an Authorization header always wins.
import type { FastifyRequest } from 'fastify'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import type { AuthStrategy } from '../http/auth.ts'
import type { AuthenticatedKey } from '../http/caller.ts'
import { parseApiKey } from './api-keys.ts'

const BEARER = /^Bearer +(\S+) *$/i

function noApiKey(): ApiError {
  return new ApiError(
    'missing_api_key',
    'No API key: send the header `Authorization: Bearer sk_test_…` (or sk_live_…).',
  )
}

export function readBearerKey(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw noApiKey()
  const key = BEARER.exec(header)?.[1]
  if (key === undefined || parseApiKey(key) === null) {
    throw new ApiError(
      'invalid_api_key',
      'Malformed API key: expected `Authorization: Bearer sk_test_…` or `Bearer sk_live_…` with 32 letters or digits.',
    )
  }
  return key
}

async function findSlowly(deps: Deps, presented: string): Promise<AuthenticatedKey> {
  const key = await deps.keyCache.find(presented)
  if (!key) throw new ApiError('invalid_api_key', 'Unknown or revoked API key.')
  return key
}

/** `Bearer ` as clients send it: the key follows at this offset. */
const BEARER_PREFIX = 'Bearer '

export function apiKeyAuth(deps: Deps): AuthStrategy<AuthenticatedKey> {
  return {
    find(request: FastifyRequest) {
      const header = request.headers.authorization
      if (header === undefined) return undefined
      // The cache holds only keys that exist, so a hit on the usual `Bearer <key>` form needs no
      // format check; anything else is parsed (and refused with its precise error) first.
      const cached = header.startsWith(BEARER_PREFIX)
        ? deps.keyCache.peek(header.slice(BEARER_PREFIX.length))
        : undefined
      if (cached) return cached
      const presented = readBearerKey(header)
      return deps.keyCache.peek(presented) ?? findSlowly(deps, presented)
    },
    caller: (key) => key,
    missing: noApiKey,
  }
}
