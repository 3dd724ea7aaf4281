// The response hook's part of the request logs: which requests are logged, and
// what is taken from them. Runs beside the access log (app.ts) on every answered request.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiError } from '../errors.ts'
import type { Clock } from '../lib/clock.ts'
import type { RequestLogWriter } from './request-log-writer.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The error this request was answered with (error-handler.ts), for its request log. */
    apiError: ApiError | null
  }
}

/**
 * Every /v1 request whose key was valid, whatever its answer (a 404, 422, 429 or 500 included).
 * Without a valid key there is no account to log to: those stay in the access log only.
 */
export function requestLogHook(writer: RequestLogWriter, clock: Clock) {
  if (!writer.enabled) return (_request: FastifyRequest, _reply: FastifyReply) => {}
  return (request: FastifyRequest, reply: FastifyReply) => {
    const scope = request.scope
    if (scope === null || !request.url.startsWith('/v1')) return
    const idempotencyKey = request.idempotencyKey
    writer.record({
      id: request.id,
      scope,
      atMs: clock.epochMs(),
      method: request.method,
      route: request.route?.url ?? null,
      url: request.url,
      status: reply.statusCode,
      error: reply.statusCode >= 400 ? request.apiError : null,
      idempotencyKey,
      replayed: idempotencyKey !== null && reply.getHeader('idempotent-replayed') === 'true',
      ms: Math.round(reply.elapsedTime * 100) / 100,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    })
  }
}
