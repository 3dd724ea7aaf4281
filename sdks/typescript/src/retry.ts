// When and how long the SDK waits before trying a call again (docs/sdks.md#retries-and-idempotency,
// docs/api.md#errors): network errors, 429 and 5xx, with exponential backoff and full jitter, or
// after `Retry-After` when Paraph sends one; never another 4xx. Pure: the caller's loop sleeps.

export interface RetryPolicy {
  /** Retries after the first attempt (default 2: three attempts at most). */
  maxRetries: number
  /** The first backoff's ceiling; each retry doubles it (default 500 ms). */
  baseDelayMs: number
  /** The backoff's ceiling (default 8 s). */
  maxDelayMs: number
  /** A `Retry-After` longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs: number
  /** [0, 1) — Math.random by default; a test fixes it. */
  random: () => number
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
}

/** What one attempt ended with. */
export type Outcome =
  | { kind: 'answer'; status: number; code: string; retryAfterMs: number | undefined }
  | { kind: 'network'; refused: boolean }

/**
 * Whether to retry, and after how many ms (`null`: do not). `replaySafe` says a repeat cannot act
 * twice: a GET, PUT, PATCH or DELETE, or a POST the OpenAPI gives an Idempotency-Key (sent again
 * unchanged). A POST without one is retried only when Paraph provably did not run it: a 429 (refused
 * before the handler) or a refused connection.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, outcome: Outcome, replaySafe: boolean) {
  if (attempt >= policy.maxRetries) return null
  const backoff = fullJitter(policy, attempt)
  if (outcome.kind === 'network') return replaySafe || outcome.refused ? backoff : null
  const { status, code, retryAfterMs } = outcome
  // 409 idempotency_key_in_use: the first request with this key is still running (docs/api.md#idempotency).
  const notRun = status === 429 || (status === 409 && code === 'idempotency_key_in_use')
  if (!notRun && !(status >= 500 && replaySafe)) return null
  if (retryAfterMs === undefined) return backoff
  return retryAfterMs <= policy.maxRetryAfterMs ? retryAfterMs : null
}

/** Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): uniform in [0, min(cap, base·2^n)). */
export function fullJitter(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  return Math.floor(policy.random() * ceiling)
}
