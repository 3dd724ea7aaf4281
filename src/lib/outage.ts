// One line when a dependency goes away and one when it is back, however many failures come between
// (issue #19: a worker polling every 500 ms logged one error per poll while PostgreSQL was down),
// and how long a polling loop should wait before trying again meanwhile.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from './clock.ts'

export interface OutageOptions {
  logger: FastifyBaseLogger
  clock: Clock
  /** What failed, as the log lines name it ("database"). */
  what: string
  /** The first wait after a failure, doubled at each further failure up to `maxDelayMs`. */
  baseDelayMs?: number
  maxDelayMs?: number
}

export class Outage {
  readonly #options: Required<OutageOptions>
  #since: number | null = null
  #failures = 0

  constructor(options: OutageOptions) {
    this.#options = { baseDelayMs: 250, maxDelayMs: 5000, ...options }
  }

  /** Whether an outage is under way: a failure since the last success. */
  get down(): boolean {
    return this.#since !== null
  }

  /**
   * Records a failure: the first of an outage is logged (with `context`, such as the loop that
   * met it), later ones only counted. Returns how long to wait before trying again.
   */
  failed(error: unknown, context = ''): number {
    const { logger, clock, what, baseDelayMs, maxDelayMs } = this.#options
    this.#failures++
    if (this.#since === null) {
      this.#since = clock.epochMs()
      logger.warn(
        { err: error, outage: what },
        `${what} unavailable${context ? ` (${context})` : ''}; backing off and retrying until it is back`,
      )
    }
    return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(this.#failures - 1, 20))
  }

  /** Records a success: ends the outage under way, if any, with one line saying how long it lasted. */
  recovered(): void {
    if (this.#since === null) return
    const { logger, clock, what } = this.#options
    logger.info(
      { outage: what, down_ms: clock.epochMs() - this.#since, failures: this.#failures },
      `${what} is back`,
    )
    this.#since = null
    this.#failures = 0
  }
}
