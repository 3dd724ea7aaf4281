// Security headers of every /console answer (console contract): the console loads nothing from a
// third party, runs no inline script or style, and may not be framed.
import type { FastifyReply } from 'fastify'

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  // Not no-referrer: under it a browser's form POST (the sign-in link's button) carries `Origin: null`,
  // which the login-CSRF check must refuse. same-origin still tells no third party anything.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
})

/**
 * The console's API and sign-in routes declare these (`headers` of defineRoute): its security
 * headers, and no caching (a session's data, a one-time link). Its pages and assets declare
 * CONSOLE_SECURITY_HEADERS alone. console-routes.test.ts checks that every console route does.
 */
export const CONSOLE_NO_STORE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CONSOLE_SECURITY_HEADERS,
  'cache-control': 'no-store',
})

/** Anything with Fastify's `header(name, value)`: a FastifyReply, or a route handler's `reply`. */
type HeaderSink = Pick<FastifyReply, 'header'> | { header(name: string, value: string): unknown }

/** Sets the console's security headers on an answer (pages, assets and /console/api alike). */
export function consoleSecurityHeaders(reply: HeaderSink): void {
  for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) reply.header(name, value)
}
