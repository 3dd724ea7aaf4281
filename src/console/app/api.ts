// Calls to the public API (/v1) and the console API (/console/api) with the session cookie. Every
// write carries the session's CSRF token (console contract); POSTs to /v1 carry a fresh
// Idempotency-Key per user action, so a retried click never creates twice.
import type { ErrorBody } from '../../http/common-schemas.ts'

export class ApiFailure extends Error {
  readonly status: number
  readonly code: string
  readonly retryAfter: string | null
  /** The request field the error is about (`submitters[0].email`), when the server names one. */
  readonly param: string | null
  constructor(
    status: number,
    code: string,
    message: string,
    retryAfter: string | null = null,
    param: string | null = null,
  ) {
    super(message)
    this.status = status
    this.code = code
    this.retryAfter = retryAfter
    this.param = param
  }
}

export interface Page<T> {
  object: 'list'
  data: T[]
  has_more: boolean
  next_cursor: string | null
}

let csrfToken = ''
let onSessionLost: () => void = () => {}

export function setCsrfToken(token: string): void {
  csrfToken = token
}

/** What to do when a call answers 401 console_session_required (the session expired meanwhile). */
export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler
}

export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // randomUUID exists only in secure contexts; a console served over plain HTTP still works.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  )
}

export async function call<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  options: { idempotencyKey?: string; contentType?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json'
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey
  else if (method === 'POST' && path.startsWith('/v1/')) headers['idempotency-key'] = newIdempotencyKey()
  let response: Response
  try {
    // A file (the editor's PDF upload) goes as it is; anything else as JSON.
    const payload = body instanceof Blob ? body : JSON.stringify(body)
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: payload }),
    })
  } catch {
    throw new ApiFailure(0, 'network_error', 'The server could not be reached. Check your connection.')
  }
  const text = await response.text()
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = null
  }
  if (!response.ok) {
    const error = (json as Partial<ErrorBody> | null)?.error
    const failure = new ApiFailure(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `HTTP ${response.status}`,
      response.headers.get('retry-after'),
      error?.param ?? null,
    )
    if (failure.code === 'console_session_required' && !path.endsWith('/session')) onSessionLost()
    throw failure
  }
  return json as T
}

export const get = <T>(path: string) => call<T>('GET', path)
export const post = <T>(path: string, body?: unknown) => call<T>('POST', path, body)

/** A query string from the given values, leaving out empty ones. */
export function query(values: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}
