// Delivers due webhook deliveries with bounded concurrency (api-v1 §6.4.5, issue #13): at most
// `concurrency` attempts in flight in this process, and at most `perEndpoint` to any one endpoint,
// whose busy endpoints the claim query leaves out — so a slow or dead endpoint holds two slots
// while every other endpoint's deliveries go on. Each attempt is claimed with a lease and the
// attempt number as fence (delivery-store.ts): several processes may dispatch at once, and a
// process that dies mid-attempt leaves a lease that lapses and an attempt that is made again.
// A failing endpoint (8 failed attempts in a row) is slowed to one attempt every `failingPauseMs`
// (1 s) in this process until an attempt succeeds: a dead endpoint that refuses at once would
// otherwise take the process through its whole backlog as fast as connections fail.
// Runs in `paraph serve` (with its worker) and `paraph worker`; on shutdown it claims nothing more
// and waits for the attempts in flight (each ends within the 10 s deadline).
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { JobBell } from '../jobs/job-bell.ts'
import { type DeliveryDeps, deliverOnce } from './deliver-once.ts'
import { claimDeliveries, dueDeliveries } from './delivery-store.ts'
import { endpointsByIds } from './endpoint-store.ts'

export interface DispatcherOptions {
  concurrency?: number
  perEndpoint?: number
  pollMs?: number
  failingPauseMs?: number
}

export class WebhookDispatcher {
  readonly #deps: DeliveryDeps
  readonly #bell: JobBell
  readonly #concurrency: number
  readonly #perEndpoint: number
  readonly #pollMs: number
  readonly #leaseMs: number
  readonly #failingPauseMs: number
  readonly #perEndpointInFlight = new Map<string, number>()
  /** Failing endpoints of this process and when (injected clock, epoch ms) they may be tried again. */
  readonly #pausedUntil = new Map<string, number>()
  readonly #running = new Set<Promise<void>>()

  constructor(deps: DeliveryDeps & Partial<Pick<Deps, 'webhookBell'>>, options: DispatcherOptions = {}) {
    this.#deps = deps
    this.#bell = deps.webhookBell ?? new JobBell()
    this.#concurrency = options.concurrency ?? 32
    this.#perEndpoint = options.perEndpoint ?? 2
    this.#pollMs = options.pollMs ?? 500
    this.#failingPauseMs = options.failingPauseMs ?? 1000
    // Past the send's own deadline, with room for the record: a live attempt's lease never lapses.
    this.#leaseMs = deps.webhookTimeoutMs + 60_000
  }

  get inFlight(): number {
    return this.#running.size
  }

  /** Claims due deliveries into the free slots and starts them; returns how many started. */
  async fill(): Promise<number> {
    const free = this.#concurrency - this.#running.size
    if (free <= 0) return 0
    const now = this.#deps.clock.now()
    for (const [id, until] of this.#pausedUntil) if (until <= now.getTime()) this.#pausedUntil.delete(id)
    const busy = [
      ...[...this.#perEndpointInFlight].filter(([, n]) => n >= this.#perEndpoint).map(([id]) => id),
      ...this.#pausedUntil.keys(),
    ]
    const candidates = await dueDeliveries(this.#deps.db, now, busy, free * 2)
    // Within the free slots and each endpoint's limit, then claimed in one statement; those another
    // process took meanwhile are simply not returned.
    const chosen: string[] = []
    const planned = new Map(this.#perEndpointInFlight)
    for (const candidate of candidates) {
      if (chosen.length >= free) break
      const n = planned.get(candidate.endpoint_id) ?? 0
      if (n >= this.#perEndpoint) continue
      planned.set(candidate.endpoint_id, n + 1)
      chosen.push(candidate.id)
    }
    const claimed = await claimDeliveries(this.#deps.db, chosen, now, this.#leaseMs)
    const endpoints = await endpointsByIds(this.#deps.db, [...new Set(claimed.map((d) => d.endpoint_id))])
    for (const delivery of claimed) this.#start(delivery, endpoints.get(delivery.endpoint_id)!)
    return claimed.length
  }

  #start(delivery: WebhookDeliveriesTable, row: WebhookEndpointsTable): void {
    const endpoint = delivery.endpoint_id
    this.#perEndpointInFlight.set(endpoint, (this.#perEndpointInFlight.get(endpoint) ?? 0) + 1)
    const attempt = deliverOnce(this.#deps, delivery, row)
      .then(({ failing }) => {
        if (failing) this.#pausedUntil.set(endpoint, this.#deps.clock.epochMs() + this.#failingPauseMs)
        else this.#pausedUntil.delete(endpoint)
      })
      .catch((error: unknown) =>
        this.#deps.logger.error(
          { err: error, delivery_id: delivery.id },
          'webhook attempt could not be recorded',
        ),
      )
      .finally(() => {
        const left = (this.#perEndpointInFlight.get(endpoint) ?? 1) - 1
        if (left === 0) this.#perEndpointInFlight.delete(endpoint)
        else this.#perEndpointInFlight.set(endpoint, left)
        this.#running.delete(attempt)
        this.#bell.ring()
      })
    this.#running.add(attempt)
  }

  /** Until `signal` aborts: fill the free slots, then wait for a ring (a new delivery, a freed slot) or the poll. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.fill()
      } catch (error) {
        this.#deps.logger.error({ err: error }, 'webhook dispatcher could not claim deliveries')
      }
      await this.#bell.wait(this.#pollMs, signal)
    }
    await Promise.allSettled([...this.#running])
  }

  /** Delivers everything due now, as the loop would, and returns once nothing is due or in flight (tests, bench). */
  async drain(): Promise<number> {
    let total = 0
    for (;;) {
      const started = await this.fill()
      total += started
      if (this.#running.size === 0 && started === 0) return total
      if (this.#running.size > 0) await Promise.race(this.#running)
    }
  }
}
