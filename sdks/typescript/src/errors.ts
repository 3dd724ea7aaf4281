// The SDK's errors (docs/sdks.md#errors): an answer of Paraph that is not a success is a
// ParaphError carrying the error envelope of docs/api.md#errors (`type`, `code`, `message`,
// `param`), the HTTP status and the `Request-Id`; a request that got no answer is a
// ParaphConnectionError (ParaphTimeoutError when the SDK's own timeout cut it). A call aborted by
// the caller's AbortSignal rejects with the signal's reason, as fetch does.

/** Paraph answered with a 4xx or 5xx (after any retries). */
export class ParaphError extends Error {
  override name = 'ParaphError'
  /** The HTTP status. */
  readonly status: number
  /** `authentication_error`, `invalid_request_error`, `rate_limit_error` or `api_error` (an open list). */
  readonly type: string
  /** Machine-readable: branch on it, with a default case (an open list, docs/api.md#errors). */
  readonly code: string
  /** The request field the error is about (`submitters[0].email`), when there is one. */
  readonly param: string | undefined
  /** The answer's `Request-Id` (`req_…`): quote it when reporting a problem. */
  readonly requestId: string | undefined
  /** `Retry-After` in seconds, when the answer had one. */
  readonly retryAfter: number | undefined
  readonly headers: Headers

  constructor(init: {
    status: number
    type: string
    code: string
    message: string
    param?: string | undefined
    headers: Headers
  }) {
    super(init.message)
    this.status = init.status
    this.type = init.type
    this.code = init.code
    this.param = init.param
    this.headers = init.headers
    this.requestId = init.headers.get('request-id') ?? undefined
    this.retryAfter = retryAfterSeconds(init.headers.get('retry-after'))
  }
}

/** No answer from Paraph: the connection failed or was reset (after any retries). */
export class ParaphConnectionError extends Error {
  override name = 'ParaphConnectionError'
}

/** No answer within the call's `timeoutMs` (after any retries). */
export class ParaphTimeoutError extends ParaphConnectionError {
  override name = 'ParaphTimeoutError'
}

/** An error answer as a ParaphError: the envelope when it is one, else a description of what came. */
export async function errorOf(response: Response): Promise<ParaphError> {
  const text = await response.text().catch(() => '')
  const envelope = parseEnvelope(text)
  if (envelope) return new ParaphError({ status: response.status, headers: response.headers, ...envelope })
  return new ParaphError({
    status: response.status,
    headers: response.headers,
    type: response.status >= 500 ? 'api_error' : 'invalid_request_error',
    code: 'unexpected_response',
    message: `HTTP ${response.status} without an error envelope: ${text.slice(0, 200)}`,
  })
}

function parseEnvelope(text: string): { type: string; code: string; message: string; param?: string } | null {
  try {
    const error = (JSON.parse(text) as { error?: Record<string, unknown> }).error
    if (!error || typeof error.code !== 'string' || typeof error.type !== 'string') return null
    const message = typeof error.message === 'string' ? error.message : error.code
    return { type: error.type, code: error.code, message, param: optionalString(error.param) }
  } catch {
    return null
  }
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** `Retry-After` as seconds: Paraph sends whole seconds (docs/api.md#rate-limits); an HTTP date is read too. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim())
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}
