// The console's session cookie as a way to call (console contract): read only when a request has
// no Authorization header (an API key always wins); writes need the session's X-CSRF-Token and, when
// the browser sends an Origin, PUBLIC_URL's; a route may need the admin role.
import type { FastifyRequest } from 'fastify'
import type { Deps } from '../../deps.ts'
import { ApiError } from '../../errors.ts'
import type { AuthStrategy } from '../../http/auth.ts'
import type { AuthenticatedKey, ConsoleScope } from '../../http/caller.ts'
import type { AnyRoute } from '../../http/define-route.ts'
import { safeEqual } from '../../lib/crypto.ts'
import { findLiveSession, toConsoleScope, touchSession } from './console-session-store.ts'

export const SESSION_COOKIE = 'paraph_console'
const TOKEN = /^[0-9A-Za-z]{43}$/

/** The session token of the `Cookie` header, or undefined when there is none. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (header === undefined || !header.includes(SESSION_COOKIE)) return undefined
  for (const part of header.split(';')) {
    const [name, ...rest] = part.split('=')
    if (name?.trim() === SESSION_COOKIE) return rest.join('=').trim()
  }
  return undefined
}

/** `Set-Cookie` for a new session (7 days, the session's absolute life) or, with null, its removal. */
export function sessionCookie(token: string | null, publicUrl: string, maxAgeSeconds: number): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : ''
  const value = token ?? ''
  const age = token === null ? 0 : maxAgeSeconds
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${age}; HttpOnly; SameSite=Lax${secure}`
}

function sessionRequired(): ApiError {
  return new ApiError(
    'console_session_required',
    'No console session, or it has expired or ended: sign in again at /console/sign-in.',
  )
}

export interface ConsoleCaller {
  scope: ConsoleScope
  csrfToken: string
}

/** The caller of a request carrying the cookie; 401 console_session_required when it names no live session. */
export async function consoleCaller(deps: Deps, token: string): Promise<ConsoleCaller> {
  if (!TOKEN.test(token)) throw sessionRequired()
  const live = await findLiveSession(deps.db, deps.clock, token)
  if (!live) throw sessionRequired()
  await touchSession(deps.db, deps.clock, live.session)
  return { scope: toConsoleScope(live), csrfToken: live.session.csrf_token }
}

/** The token of the session a request names (the caller was admitted, so it is there). */
export function sessionToken(request: Pick<FastifyRequest, 'headers'>): string {
  return readSessionCookie(request.headers.cookie) ?? ''
}

const origins = new WeakMap<object, string>()

function publicOrigin(deps: Deps): string {
  let origin = origins.get(deps.config)
  if (origin === undefined) {
    origin = new URL(deps.config.publicUrl).origin
    origins.set(deps.config, origin)
  }
  return origin
}

/** No Origin header, or PUBLIC_URL's. */
export function originAllowed(deps: Deps, headers: FastifyRequest['headers']): boolean {
  return headers.origin === undefined || headers.origin === publicOrigin(deps)
}

/** A foreign Origin (when the browser sends one) is refused on every console write. */
export function checkOrigin(deps: Deps, headers: FastifyRequest['headers']): void {
  const origin = headers.origin
  if (!originAllowed(deps, headers)) {
    throw new ApiError(
      'csrf_token_invalid',
      `Requests from ${origin} are refused: the console is served at ${publicOrigin(deps)}.`,
    )
  }
}

/**
 * CSRF (console contract): a write by cookie must carry the session's token, which only a page of
 * PUBLIC_URL's origin can read (GET /console/api/session); then the route's role.
 */
export function checkConsoleRequest(
  deps: Deps,
  request: FastifyRequest,
  caller: ConsoleCaller,
  route: AnyRoute | null,
): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    checkOrigin(deps, request.headers)
    const sent = request.headers['x-csrf-token']
    if (typeof sent !== 'string' || !safeEqual(sent, caller.csrfToken)) {
      throw new ApiError(
        'csrf_token_invalid',
        'Missing or wrong X-CSRF-Token: send the csrf_token of GET /console/api/session with every write.',
      )
    }
  }
  if (route?.consoleRole === 'admin' && caller.scope.role !== 'admin') {
    throw new ApiError('console_role_forbidden', 'Only an admin of the account may do this.')
  }
}

/**
 * The session cookie as a way to call, for app.ts to hand to the routes: the member's scope, counted
 * per member with the environment's limit, then the CSRF token and Origin of a write and the route's
 * role. On an API route it is asked only when the request has no Authorization header.
 */
export function consoleSessionAuth(deps: Deps): AuthStrategy<ConsoleCaller> {
  return {
    find(request) {
      const token = readSessionCookie(request.headers.cookie)
      return token === undefined ? undefined : consoleCaller(deps, token)
    },
    caller: (found) => found.scope,
    check: (request, found) => checkConsoleRequest(deps, request, found, request.route),
    // A /console/api route without the cookie (an API key does not open the console's own routes).
    missing: () =>
      new ApiError('console_session_required', 'Sign in to the console first (/console/sign-in).'),
  }
}

/** A console route's scope (its hook admitted only a session): narrowed for the handler. */
export function consoleScope(scope: AuthenticatedKey): ConsoleScope {
  if (scope.via !== 'console') throw sessionRequired()
  return scope
}
