// Headers of every /console answer (console contract): nothing from a third party, no inline
// script or style, never framed, no referrer (a sign-in link's token must not leak).
import type { FastifyReply } from 'fastify'

const CSP = [
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

export function consoleSecurityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CSP)
  reply.header('x-frame-options', 'DENY')
  reply.header('referrer-policy', 'no-referrer')
  reply.header('x-content-type-options', 'nosniff')
}
