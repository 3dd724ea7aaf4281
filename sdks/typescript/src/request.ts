// One call to Paraph with its retries (docs/sdks.md#retries-and-idempotency): the URL from the
// operation's path and query, the key, the body sent as JSON, an Idempotency-Key fixed before the
// first attempt and sent unchanged on every retry, each attempt under its own timeout and the
// caller's signal, waits from retry.ts. Runs on any fetch (Node.js ≥ 20, Deno, Bun, edge runtimes).
import { errorOf, ParaphConnectionError, ParaphTimeoutError } from './errors.ts'
import { type Outcome, type RetryPolicy, retryDelay } from './retry.ts'

export interface Settings {
  apiKey: string
  baseUrl: string
  timeoutMs: number
  retry: RetryPolicy
  fetch: typeof fetch
  userAgent: string
}

export interface Operation {
  method: string
  path: string
  idempotent: boolean
  answer: 'json' | 'bytes'
}

export interface RequestInput {
  path?: Record<string, string | number>
  query?: Record<string, unknown>
  body?: unknown
}

export interface RequestOptions {
  idempotencyKey?: string | undefined
  signal?: AbortSignal | undefined
  timeoutMs?: number | undefined
  maxRetries?: number | undefined
  headers?: Record<string, string> | undefined
}

export interface Answer {
  status: number
  headers: Headers
  data: unknown
}

export async function send(
  settings: Settings,
  op: Operation,
  input: RequestInput,
  options: RequestOptions = {},
): Promise<Answer> {
  const request = { url: urlOf(settings.baseUrl, op.path, input), ...prepare(settings, op, input, options) }
  const policy = { ...settings.retry, maxRetries: options.maxRetries ?? settings.retry.maxRetries }
  const replaySafe = op.method !== 'POST' || op.idempotent
  const timeoutMs = options.timeoutMs ?? settings.timeoutMs
  for (let attempt = 0; ; attempt++) {
    const result = await attemptOnce(settings, op, request, timeoutMs, options.signal)
    if ('data' in result) return result
    const delay = retryDelay(policy, attempt, result.outcome, replaySafe)
    if (delay === null) throw result.failure
    await sleep(delay, options.signal)
  }
}

interface Prepared {
  url: string
  headers: Record<string, string>
  body: string | undefined
}

function prepare(settings: Settings, op: Operation, input: RequestInput, options: RequestOptions) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${settings.apiKey}`,
    accept: 'application/json',
    'user-agent': settings.userAgent,
    ...options.headers,
  }
  const body = input.body === undefined ? undefined : JSON.stringify(input.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  // docs/api.md#idempotency: one key per call, the same on every retry.
  if (op.idempotent) headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID()
  return { headers, body }
}

/** One attempt under its own timeout and the caller's signal: the answer, or what failed and how. */
async function attemptOnce(
  settings: Settings,
  op: Operation,
  { url, headers, body }: Prepared,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<Answer | { outcome: Outcome; failure: Error }> {
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout
  try {
    const response = await settings.fetch(url, { method: op.method, headers, body, signal })
    if (response.ok)
      return { status: response.status, headers: response.headers, data: await read(response, op) }
    const error = await errorOf(response)
    const retryAfterMs = error.retryAfter === undefined ? undefined : error.retryAfter * 1000
    return {
      outcome: { kind: 'answer', status: error.status, code: error.code, retryAfterMs },
      failure: error,
    }
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason
    // fetch fails with a TypeError (undici: the system error in `cause`); anything else is a bug.
    if (!timeout.aborted && !(error instanceof TypeError)) throw error
    const failure = timeout.aborted
      ? new ParaphTimeoutError(`No answer within ${timeoutMs} ms`, { cause: error })
      : new ParaphConnectionError(`No answer from Paraph: ${describe(error)}`, { cause: error })
    return { outcome: { kind: 'network', refused: codeOf(error) === 'ECONNREFUSED' }, failure }
  }
}

function urlOf(baseUrl: string, template: string, input: RequestInput): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = input.path?.[name]
    if (value === undefined) throw new TypeError(`Missing path parameter ${name} for ${template}`)
    return encodeURIComponent(String(value))
  })
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null) query.set(name, String(value))
  }
  const search = query.toString() === '' ? '' : `?${query}`
  return `${baseUrl.replace(/\/+$/, '')}${path}${search}`
}

async function read(response: Response, op: Operation): Promise<unknown> {
  if (op.answer === 'bytes') return new Uint8Array(await response.arrayBuffer())
  const text = await response.text()
  return text === '' ? undefined : JSON.parse(text)
}

/** The system error code under fetch's TypeError (undici puts it in `cause`). */
function codeOf(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

function describe(error: unknown): string {
  const code = codeOf(error)
  const message = error instanceof Error ? error.message : String(error)
  return code ? `${message} (${code})` : message
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const done = () => {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }
    const timer = setTimeout(done, ms)
    const aborted = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', aborted, { once: true })
  })
}
