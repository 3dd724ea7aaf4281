// The SSRF guard (docs/security.md#ssrf-guard): every request to a user-supplied URL (PDF URLs,
// webhook deliveries) goes through here. The URL rules run on the first URL and on every redirect
// target; the address rule runs inside each connection's own DNS lookup (address-policy.ts).
import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { rootCertificates } from 'node:tls'
import { Agent, type Dispatcher } from 'undici'
import { guardedLookup, type Resolve, systemResolve, urlRefusal } from './address-policy.ts'
import { MAX_URL_LENGTH } from './url-length.ts'

export { isAllowedAddress, type Resolve } from './address-policy.ts'

export type SafeFetchFailure =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'host_not_allowed'
  | 'address_not_allowed'
  | 'dns_failed'
  | 'connect_failed'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'tls_failed'
  | 'network_error'

/** message: one sentence naming the host and what went wrong, fit for the user who gave the URL. */
export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError'
  readonly reason: SafeFetchFailure
  constructor(reason: SafeFetchFailure, message: string, options?: ErrorOptions) {
    super(message, options)
    this.reason = reason
  }
}

export interface SafeFetchOptions {
  /** Development and tests: loopback, private, link-local… addresses and localhost names allowed. */
  allowPrivateNetwork: boolean
  allowHttp: boolean
  /** Exact addresses allowed although the policy refuses them (an on-premises receiver; tests). */
  allowAddresses?: readonly string[]
  maxBytes: number
  /**
   * safeFetch only: keep the first maxBytes of a longer answer and stop reading (webhook receivers,
   * whose status is what counts) instead of failing with too_large.
   */
  truncate?: boolean
  /** 0: a 3xx is returned as is (webhooks); n: up to n hops are followed, one more is an error. */
  maxRedirects: number
  /** TCP + TLS handshake of each connection (undici checks it about every 0.5 s). */
  connectTimeoutMs: number
  /** Wall-clock deadline for the whole exchange: every hop, and reading (or writing) the body. */
  totalTimeoutMs: number
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string | Buffer
  /** Tests: a certificate trusted in addition to the system roots. */
  ca?: string | Buffer
  /** Tests: replaces dns.lookup; its answers are checked like the system's. */
  resolve?: Resolve
  /**
   * A long-lived agent made by guardedAgent() with this same policy (webhooks): its connections are
   * kept alive and reused — each was checked by the lookup when it connected — and it is not
   * destroyed here. Without it, one agent per exchange.
   */
  agent?: Agent
}

export interface SafeResponse {
  status: number
  headers: Record<string, string>
  finalUrl: string
}

/** Reads the whole body (≤ maxBytes) into memory — for small answers (webhook receivers). */
export async function safeFetch(
  url: string,
  options: SafeFetchOptions,
): Promise<SafeResponse & { body: Buffer; truncated: boolean }> {
  return exchange(url, options, async (body, host) => {
    const chunks: Buffer[] = []
    if (options.truncate) return firstBytes(body, options.maxBytes)
    for await (const chunk of capped(options.maxBytes, host)(body)) chunks.push(chunk)
    return { body: Buffer.concat(chunks), truncated: false }
  })
}

/** Reads at most maxBytes and leaves the rest unread (the exchange then discards the body). */
async function firstBytes(body: Body, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = maxBytes - total
    if (chunk.length >= room) {
      chunks.push(chunk.subarray(0, room))
      const truncated = chunk.length > room
      // The answer may go on: what is past the cap is never read (discarded by the caller).
      return { body: Buffer.concat(chunks), truncated }
    }
    chunks.push(chunk)
    total += chunk.length
  }
  return { body: Buffer.concat(chunks), truncated: false }
}

/**
 * Streams the body of the final response, whatever its status, into `file` (≤ maxBytes) — for PDFs
 * of up to 50 MB without holding them in memory. Removes the partial file on failure.
 */
export async function safeDownload(
  url: string,
  file: string,
  options: SafeFetchOptions,
): Promise<SafeResponse & { bytes: number }> {
  return exchange(url, options, async (body, host) => {
    let bytes = 0
    try {
      await pipeline(
        body,
        capped(options.maxBytes, host, (total) => (bytes = total)),
        createWriteStream(file),
      )
    } catch (error) {
      await rm(file, { force: true })
      throw error
    }
    return { bytes }
  })
}

type Body = Dispatcher.ResponseData['body']
type Consume<T> = (body: Body, host: string) => Promise<T>
type Outgoing = Required<Pick<SafeFetchOptions, 'method' | 'headers'>> & Pick<SafeFetchOptions, 'body'>

async function exchange<T>(
  raw: string,
  options: SafeFetchOptions,
  consume: Consume<T>,
): Promise<SafeResponse & T> {
  let url = checkedUrl(raw, undefined, options)
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(timeoutError(url, options)), options.totalTimeoutMs)
  // One agent per exchange unless the caller keeps one: its lookup carries this call's policy, and
  // it never uses HTTP(S)_PROXY.
  const agent = options.agent ?? guardedAgent(options)
  const { method = 'GET', headers = {}, body } = options
  let outgoing: Outgoing = { method, headers, body }
  try {
    for (let hops = 0; ; hops++) {
      const path = `${url.pathname}${url.search}`
      const response = await agent.request({ origin: url.origin, path, ...outgoing, signal: deadline.signal })
      try {
        const next = redirectTarget(response, url, hops, options)
        if (next === undefined) {
          if (!options.truncate && Number(response.headers['content-length'] ?? 0) > options.maxBytes)
            throw tooLarge(url.hostname, options.maxBytes)
          const summary = { status: response.statusCode, headers: flat(response.headers), finalUrl: url.href }
          return { ...summary, ...(await consume(response.body, url.hostname)) }
        }
        outgoing = redirected(response.statusCode, outgoing, url, next)
        url = next
      } finally {
        discard(response.body)
      }
    }
  } catch (error) {
    throw failure(error, url, options, deadline.signal.aborted)
  } finally {
    clearTimeout(timer)
    if (!options.agent) await agent.destroy()
  }
}

function checkedUrl(raw: string, base: URL | undefined, options: SafeFetchOptions): URL {
  if (raw.length > MAX_URL_LENGTH) {
    throw new SafeFetchError(
      'invalid_url',
      `${base ? `${base.hostname} redirects to a URL` : 'the URL is'} longer than ${MAX_URL_LENGTH} characters (${raw.length})`,
    )
  }
  let url: URL
  try {
    url = new URL(raw, base)
  } catch {
    throw new SafeFetchError(
      'invalid_url',
      base ? `${base.hostname} redirects to an invalid URL` : 'the URL is not valid',
    )
  }
  const refusal = urlRefusal(url, options)
  if (!refusal) return url
  throw new SafeFetchError(
    refusal.reason,
    base ? `${refusal.message} (redirect from ${base.hostname})` : refusal.message,
  )
}

function redirectTarget(
  response: Dispatcher.ResponseData,
  url: URL,
  hops: number,
  options: SafeFetchOptions,
) {
  const location = response.headers.location
  if (![301, 302, 303, 307, 308].includes(response.statusCode) || typeof location !== 'string')
    return undefined
  if (options.maxRedirects === 0) return undefined
  if (hops >= options.maxRedirects) {
    throw new SafeFetchError(
      'too_many_redirects',
      `${url.hostname} redirects more than ${options.maxRedirects} times`,
    )
  }
  return checkedUrl(location, url, options)
}

/** What a browser sends to the next hop (fetch spec): 303 and POST→301/302 become a GET without body. */
function redirected(status: number, outgoing: Outgoing, from: URL, to: URL): Outgoing {
  const toGet = status === 303 || ((status === 301 || status === 302) && outgoing.method === 'POST')
  const dropped = [
    ...(toGet ? ['content-type', 'content-length'] : []),
    ...(to.origin === from.origin ? [] : ['authorization', 'cookie', 'proxy-authorization']),
  ]
  const kept = Object.entries(outgoing.headers).filter(([name]) => !dropped.includes(name.toLowerCase()))
  const headers = Object.fromEntries(kept)
  return toGet ? { method: 'GET', headers } : { ...outgoing, headers }
}

/** Passes the body through, failing as soon as it exceeds maxBytes: nothing past the cap is kept. */
function capped(maxBytes: number, host: string, progress?: (total: number) => void) {
  return async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let total = 0
    for await (const chunk of source) {
      total += chunk.length
      if (total > maxBytes) throw tooLarge(host, maxBytes)
      progress?.(total)
      yield chunk
    }
  }
}

/** An undici agent whose every connection goes through the address policy's lookup. */
export function guardedAgent(
  options: Pick<
    SafeFetchOptions,
    'allowPrivateNetwork' | 'allowAddresses' | 'connectTimeoutMs' | 'ca' | 'resolve'
  >,
): Agent {
  const refuse = (reason: SafeFetchFailure, message: string, cause?: unknown) =>
    new SafeFetchError(reason, message, { cause })
  const lookup = guardedLookup(options, options.resolve ?? systemResolve, refuse)
  const ca = options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }
  return new Agent({ connect: { timeout: options.connectTimeoutMs, lookup, ...ca } })
}

const CONNECT_CODES = /^E(CONNREFUSED|HOSTUNREACH|NETUNREACH|ADDRNOTAVAIL|TIMEDOUT)$/
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_)|CERT|UNABLE_TO_/

function failure(error: unknown, url: URL, options: SafeFetchOptions, timedOut: boolean): unknown {
  // Our own refusals arrive as they were thrown: from the lookup, the deadline or the body cap.
  if (error instanceof SafeFetchError) return error
  if (timedOut) return timeoutError(url, options)
  // A file that cannot be written (safeDownload) is our problem, not the URL's: passed on unchanged.
  if (typeof (error as { path?: unknown }).path === 'string') return error
  const [host, code] = [url.hostname, errorCode(error) ?? 'unknown error']
  const fail = (reason: SafeFetchFailure, message: string) =>
    new SafeFetchError(reason, message, { cause: error })
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return fail('timeout', `could not connect to ${host} within ${duration(options.connectTimeoutMs)}`)
  }
  if (CONNECT_CODES.test(code)) return fail('connect_failed', `could not connect to ${host} (${code})`)
  if (TLS_CODES.test(code)) return fail('tls_failed', `the TLS handshake with ${host} failed (${code})`)
  return fail('network_error', `the exchange with ${host} broke off (${code})`)
}

function errorCode(error: unknown): string | undefined {
  const { code, errors } = error as { code?: unknown; errors?: unknown[] }
  if (typeof code === 'string') return code
  // net's happy eyeballs reports every failed address in an AggregateError.
  return Array.isArray(errors) ? errorCode(errors[0] ?? {}) : undefined
}

function discard(body: Body): void {
  // Without a listener, the error that destroy() (or the agent closing) raises would be uncaught.
  body.on('error', () => {})
  body.destroy()
}

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = Object.entries(headers).map(([name, value]) => [name, [value ?? []].flat().join(', ')])
  return Object.fromEntries(entries)
}

function tooLarge(host: string, maxBytes: number): SafeFetchError {
  return new SafeFetchError('too_large', `the response from ${host} exceeds ${maxBytes} bytes`)
}

function timeoutError(url: URL, options: SafeFetchOptions): SafeFetchError {
  const within = duration(options.totalTimeoutMs)
  return new SafeFetchError('timeout', `no complete response from ${url.hostname} within ${within}`)
}

function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
