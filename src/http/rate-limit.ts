// docs/api.md#rate-limits: per key per minute, 100 test / 1000 live. Counters live in this process
// by default and in Redis when REDIS_URL is set, so every API process shares them
// (rate-limiter-flexible does the atomic counting there; Redis going away falls back to in-process
// counters rather than refusing traffic).
//
// Windows are fixed minutes of the injected clock: the window number is part of the counter's key,
// so tests move the clock to a new minute instead of waiting for one.
//
// The same counters limit the signer's routes and `/files/…` per client address
// (RATE_LIMIT_SIGNER, docs/operations.md#configuration), in a bucket of their own (`signer`), and
// the MCP endpoint per key (RATE_LIMIT_MCP, docs/mcp.md#rate-limits) in another (`mcp`), so an
// agent's loop cannot use up the quota of the key's other clients.
import type { FastifyReply } from 'fastify'
import type { Redis } from 'ioredis'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import type { Environment } from '../db/tables.ts'
import type { Clock } from '../lib/clock.ts'

const WINDOW_MS = 60_000

/**
 * What a counter counts: an API key of an environment (docs/api.md#rate-limits), a signer's
 * address, or a key's calls of the MCP endpoint (docs/mcp.md#rate-limits).
 */
export type RateLimitBucket = Environment | 'signer' | 'mcp'

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch milliseconds at which the current window ends. */
  resetAt: number
}

export interface RateLimiterOptions {
  /** Requests per minute of each bucket; without `signer` (`mcp`), nothing is limited per address (MCP call). */
  limits: Record<Environment, number> & Partial<Record<'signer' | 'mcp', number>>
  clock: Clock
  redis?: Redis
  /** Keeps counters of parallel test runs apart in a shared Redis. */
  keyPrefix?: string
}

/**
 * In-process fixed-window counters: a Map lookup on the hot path instead of a promise chain.
 * One entry per key, overwritten when its minute changes; entries of past minutes are dropped
 * once a minute, so memory is bounded by the keys (and client addresses) of the last minute.
 */
class LocalCounters {
  readonly #counts = new Map<string, { window: number; count: number }>()
  #swept = Number.NEGATIVE_INFINITY

  increment(key: string, window: number): number {
    if (window > this.#swept) this.#sweep(window)
    const entry = this.#counts.get(key)
    if (entry && entry.window === window) return ++entry.count
    this.#counts.set(key, { window, count: 1 })
    return 1
  }

  #sweep(window: number): void {
    for (const [key, entry] of this.#counts) if (entry.window < window) this.#counts.delete(key)
    this.#swept = window
  }
}

function localKey(keyId: string, bucket: RateLimitBucket): string {
  if (bucket === 'signer') return `ip:${keyId}`
  return bucket === 'mcp' ? `mcp:${keyId}` : keyId
}

export class RateLimiter {
  readonly #shared: Partial<Record<RateLimitBucket, RateLimiterAbstract>> | null
  readonly #local = new LocalCounters()
  readonly #limits: RateLimiterOptions['limits']
  readonly #clock: Clock

  constructor({ limits, clock, redis, keyPrefix = 'paraph:rl' }: RateLimiterOptions) {
    this.#limits = limits
    this.#clock = clock
    // Counters outlive their minute a little so a window never expires while still in use; while
    // Redis is away the library's insurance limiter counts in this process.
    const shared = (bucket: RateLimitBucket, points: number, store: Redis): RateLimiterAbstract => {
      const options = { points, duration: 2 * (WINDOW_MS / 1000), keyPrefix: `${keyPrefix}:${bucket}` }
      return new RateLimiterRedis({
        ...options,
        storeClient: store,
        insuranceLimiter: new RateLimiterMemory(options),
      })
    }
    this.#shared = redis
      ? {
          test: shared('test', limits.test, redis),
          live: shared('live', limits.live, redis),
          ...(limits.signer ? { signer: shared('signer', limits.signer, redis) } : {}),
          ...(limits.mcp ? { mcp: shared('mcp', limits.mcp, redis) } : {}),
        }
      : null
  }

  /** Counts one request for the key and says whether it may proceed (synchronously when in-process). */
  consume(keyId: string, bucket: RateLimitBucket): RateLimitDecision | Promise<RateLimitDecision> {
    const now = this.#clock.epochMs()
    const window = Math.floor(now / WINDOW_MS)
    const limit = this.#limits[bucket] ?? Number.POSITIVE_INFINITY
    const resetAt = (window + 1) * WINDOW_MS
    const shared = this.#shared?.[bucket]
    if (!shared) {
      // Key ids are unique across environments, addresses are counted as `ip:…` and a key's MCP
      // calls as `mcp:…`: the key alone names the counter.
      const count = this.#local.increment(localKey(keyId, bucket), window)
      return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt }
    }
    return shared.consume(`${keyId}:${window}`, 1).then(
      (res) => ({ allowed: true, limit, remaining: Math.max(0, res.remainingPoints), resetAt }),
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetAt }
        throw rejection
      },
    )
  }
}

export function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  // Strings, not numbers: Node converts a number twice (to check it, then to write it).
  reply.header('x-ratelimit-limit', String(decision.limit))
  reply.header('x-ratelimit-remaining', String(decision.remaining))
  // Epoch seconds at which the window resets, as GitHub and most X-RateLimit users do.
  reply.header('x-ratelimit-reset', String(Math.ceil(decision.resetAt / 1000)))
}

export function retryAfterSeconds(decision: RateLimitDecision, now: Date): number {
  return Math.max(1, Math.ceil((decision.resetAt - now.getTime()) / 1000))
}
