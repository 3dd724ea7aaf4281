// Every 4xx and 5xx leaves through here as `{ error: { type, code, message, param? } }`
// (docs/api.md#errors), including Fastify's own refusals (bad JSON, body too large, wrong content
// type, unknown route).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { isDatabaseUnavailable } from '../db/dialect.ts'
import { ApiError } from '../errors.ts'
import { LIMITS } from '../limits.ts'
import type { AnyRoute } from './define-route.ts'
import { drainRequestBody } from './drain-body.ts'
import { COMMON_HEADERS } from './register-route.ts'
import { type ValidationPart, validationError } from './validation.ts'

/** Embed JWTs and signed file tokens are path parameters of a few hundred characters. */
export const MAX_PARAM_LENGTH = 4096

export function envelope(error: ApiError) {
  const { type, code, message, param } = error
  return { error: param === undefined ? { type, code, message } : { type, code, message, param } }
}

function frameworkError(error: FastifyError, route: AnyRoute | undefined): ApiError | null {
  if (error.validation) {
    return validationError(
      error.validation as never,
      (error.validationContext ?? 'body') as ValidationPart,
      route?.queryErrors,
    )
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'request_too_large',
        `Request body is larger than this route accepts (${route?.bodyLimit ?? LIMITS.jsonBodyBytes} bytes).`,
      )
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'unsupported_content_type',
        'Send the body as JSON with `Content-Type: application/json`.',
      )
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        'invalid_json',
        'Body is empty but Content-Type is application/json; send a JSON object.',
      )
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_json', 'The body is not as long as its Content-Length header says.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_json', `Body is not valid JSON: ${error.message}`)
    // Before routing: the path itself cannot name anything. Neither echoes the URL back.
    case 'FST_ERR_BAD_URL':
      return new ApiError(
        'resource_not_found',
        'The URL path is not valid percent-encoding; it names no resource.',
      )
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('invalid_id', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`)
  }
  if (error instanceof SyntaxError)
    return new ApiError('invalid_json', `Body is not valid JSON: ${error.message}`)
  const status = (error as { statusCode?: number }).statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError(
      status === 404 ? 'resource_not_found' : 'invalid_request',
      error.message.slice(0, 300),
    )
  }
  return null
}

export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error
  if (error === null || typeof error !== 'object') return unexpected('handler_error', request.id)
  const known = frameworkError(error as FastifyError, request.route ?? undefined)
  if (known) return known
  return unexpected(isDatabaseUnavailable(error) ? 'db_error' : 'handler_error', request.id)
}

/** The generic 500: the request id to quote, nothing internal. */
function unexpected(code: 'db_error' | 'handler_error', requestId: string): ApiError {
  const what = code === 'db_error' ? 'The database is unavailable' : 'An unexpected error occurred'
  return new ApiError(code, `${what}; it has been logged. Quote request id ${requestId} when reporting it.`)
}

/** The answer of a refused request, once the rest of its body has been read (drain-body.ts). */
function sendError(request: FastifyRequest, reply: FastifyReply, apiError: ApiError): void {
  // Refusals before routing (a URL Fastify cannot parse) skipped the route's onRequest hook.
  reply.headers({ 'request-id': request.id, ...COMMON_HEADERS })
  request.apiError = apiError
  reply.status(apiError.status).headers(apiError.headers).send(envelope(apiError))
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  let apiError: ApiError
  let logged: unknown = error
  try {
    apiError = toApiError(error, request)
  } catch (mappingError) {
    // The mapping itself must never be what fails: Fastify's fallback would answer with its own
    // body and the internal message.
    apiError = unexpected('handler_error', request.id)
    logged = new Error('the error handler could not map an error', { cause: [error, mappingError] })
  }
  if (apiError.status >= 500) {
    // Logged once with its stack and request id; the client sees only the generic message.
    const err = logged instanceof Error ? logged : new Error(`a non-Error was thrown: ${String(logged)}`)
    request.log.error({ err, code: apiError.code, request_id: request.id }, 'request failed')
  }
  if (request.raw.complete !== false) {
    sendError(request, reply, apiError)
    return
  }
  // The client is still sending: read the rest first, so that it reads this answer (drain-body.ts).
  const bounds = { maxBytes: LIMITS.drainBodyBytes, maxMs: LIMITS.drainBodyMs }
  void drainRequestBody(request.raw, bounds).then((ended) => {
    if (!ended) reply.header('connection', 'close')
    sendError(request, reply, apiError)
  })
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  const error = new ApiError(
    'resource_not_found',
    `Unknown route ${request.method} ${request.url.split('?')[0]}; the routes are listed at /openapi.yaml.`,
  )
  reply.headers({ 'request-id': request.id, ...COMMON_HEADERS })
  request.apiError = error
  reply.status(404).send(envelope(error))
}
