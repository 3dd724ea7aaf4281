// api-v1 §8: per key per minute, 100 test / 1000 live. Counters live in this process by default and
// in Redis when REDIS_URL is set, so every API process shares them (rate-limiter-flexible does the
// atomic counting; Redis going away falls back to in-process counters rather than refusing traffic).
//
// Windows are fixed minutes of the injected clock: the window number is part of the counter's key,
// so tests move the clock to a new minute instead of waiting for one.
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

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch milliseconds at which the current window ends. */
  resetAt: number
}

export interface RateLimiterOptions {
  limits: Record<Environment, number>
  clock: Clock
  redis?: Redis
  /** Keeps counters of parallel test runs apart in a shared Redis. */
  keyPrefix?: string
}

export class RateLimiter {
  readonly #limiters: Record<Environment, RateLimiterAbstract>
  readonly #limits: Record<Environment, number>
  readonly #clock: Clock

  constructor({ limits, clock, redis, keyPrefix = 'paraph:rl' }: RateLimiterOptions) {
    this.#limits = limits
    this.#clock = clock
    // Counters outlive their minute a little so a window never expires while still in use.
    const make = (env: Environment): RateLimiterAbstract => {
      const options = {
        points: limits[env],
        duration: 2 * (WINDOW_MS / 1000),
        keyPrefix: `${keyPrefix}:${env}`,
      }
      const memory = new RateLimiterMemory(options)
      return redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
        : memory
    }
    this.#limiters = { test: make('test'), live: make('live') }
  }

  /** Counts one request for the key and says whether it may proceed. */
  async consume(keyId: string, environment: Environment): Promise<RateLimitDecision> {
    const now = this.#clock.now().getTime()
    const window = Math.floor(now / WINDOW_MS)
    const limit = this.#limits[environment]
    const resetAt = (window + 1) * WINDOW_MS
    try {
      const res = await this.#limiters[environment].consume(`${keyId}:${window}`, 1)
      return { allowed: true, limit, remaining: Math.max(0, res.remainingPoints), resetAt }
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetAt }
      throw rejection
    }
  }
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    // Epoch seconds at which the window resets, as GitHub and most X-RateLimit users do.
    'x-ratelimit-reset': String(Math.ceil(decision.resetAt / 1000)),
  }
}

export function retryAfterSeconds(decision: RateLimitDecision, now: Date): number {
  return Math.max(1, Math.ceil((decision.resetAt - now.getTime()) / 1000))
}
