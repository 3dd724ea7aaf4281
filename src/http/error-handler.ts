// Every 4xx and 5xx leaves through here as `{ error: { type, code, message } }` (api-v1 §7.1),
// including Fastify's own refusals (bad JSON, body too large, wrong content type, unknown route).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, type ErrorCode } from '../errors.ts'
import type { AnyRoute } from './define-route.ts'
import { COMMON_HEADERS } from './register-route.ts'
import { type ValidationPart, validationError } from './validation.ts'

export function envelope(error: ApiError) {
  return { error: { type: error.type, code: error.code, message: error.message } }
}

const DB_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  '57P01',
  '57P03',
])

function isDatabaseUnavailable(error: { code?: unknown; message?: string }): boolean {
  const code = typeof error.code === 'string' ? error.code : ''
  return (
    DB_UNAVAILABLE.has(code) ||
    code.startsWith('08') ||
    /Connection terminated|connection timeout/i.test(error.message ?? '')
  )
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
        `Request body is larger than this route accepts (${route?.bodyLimit ?? 1_048_576} bytes).`,
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
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_json', `Body is not valid JSON: ${error.message}`)
  }
  if (error instanceof SyntaxError || (error as { statusCode?: number }).statusCode === 400) {
    return new ApiError('invalid_json', `Body is not valid JSON: ${error.message}`)
  }
  const status = (error as { statusCode?: number }).statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError(status === 404 ? 'resource_not_found' : 'invalid_request', error.message)
  }
  return null
}

export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error
  const known = frameworkError(error as FastifyError, request.route ?? undefined)
  if (known) return known
  const code: ErrorCode = isDatabaseUnavailable(error as Error) ? 'db_error' : 'handler_error'
  const what = code === 'db_error' ? 'The database is unavailable' : 'An unexpected error occurred'
  return new ApiError(code, `${what}; it has been logged. Quote request id ${request.id} when reporting it.`)
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error, request)
  if (apiError.status >= 500) {
    // Logged once with its stack and request id; the client sees only the generic message.
    request.log.error({ err: error, code: apiError.code, request_id: request.id }, 'request failed')
  }
  // Refusals before routing (a URL Fastify cannot parse) skipped the route's onRequest hook.
  reply.headers({ 'request-id': request.id, ...COMMON_HEADERS })
  reply.status(apiError.status).headers(apiError.headers).send(envelope(apiError))
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  const error = new ApiError(
    'resource_not_found',
    `Unknown route ${request.method} ${request.url.split('?')[0]}; the routes are listed at /openapi.yaml.`,
  )
  reply.headers({ 'request-id': request.id, ...COMMON_HEADERS })
  reply.status(404).send(envelope(error))
}
