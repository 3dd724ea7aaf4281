// One webhook POST (docs/api.md#deliveries, docs/security.md#webhook-signatures and
// docs/security.md#ssrf-guard): through the SSRF guard with its connect-time address check, a 10 s
// deadline for the whole exchange, no redirect followed (a 3xx is an answer, and a failure), at
// most 64 KB of the answer kept. Never throws for the receiver's sake: every outcome is a result to
// record.

import type { Agent } from 'undici'
import type { Resolve } from '../lib/address-policy.ts'
import { SafeFetchError, safeFetch } from '../lib/safe-fetch.ts'
import { LIMITS } from '../limits.ts'
import { SIGNATURE_HEADER } from './webhook-signature.ts'

export const USER_AGENT = 'Paraph-Webhooks/1.0 (+https://github.com/paraph)'

export interface SendOptions {
  allowPrivateNetwork: boolean
  timeoutMs: number
  resolve: Resolve
  ca?: string
  /** The process's webhook agent (deps.webhookAgent): keep-alive connections, each checked when made. */
  agent?: Agent
}

export interface SendResult {
  /** A 2xx answer. */
  ok: boolean
  status: number | null
  headers: Record<string, string>
  /** The first 64 KB of the answer, as text. */
  body: string
  durationMs: number
  /** Why it failed, in one line: the refusal, the network error, or the non-2xx status. */
  error: string | null
}

export async function sendWebhook(
  url: string,
  body: string,
  signature: string,
  options: SendOptions,
  now: () => number = performance.now.bind(performance),
): Promise<SendResult> {
  const started = now()
  const elapsed = () => Math.round(now() - started)
  try {
    const response = await safeFetch(url, {
      allowPrivateNetwork: options.allowPrivateNetwork,
      allowHttp: options.allowPrivateNetwork,
      maxBytes: LIMITS.webhookResponseBytes,
      truncate: true,
      maxRedirects: 0,
      connectTimeoutMs: options.timeoutMs,
      totalTimeoutMs: options.timeoutMs,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        [SIGNATURE_HEADER.toLowerCase()]: signature,
      },
      body,
      resolve: options.resolve,
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
    })
    const ok = response.status >= 200 && response.status <= 299
    const redirect = response.status >= 300 && response.status <= 399
    return {
      ok,
      status: response.status,
      headers: response.headers,
      body: response.body.toString('utf8'),
      durationMs: elapsed(),
      error: ok
        ? null
        : redirect
          ? `HTTP ${response.status}: redirects are not followed`
          : `HTTP ${response.status}`,
    }
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error
    return { ok: false, status: null, headers: {}, body: '', durationMs: elapsed(), error: error.message }
  }
}
