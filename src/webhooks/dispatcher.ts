// Delivers due webhook deliveries with bounded concurrency (docs/api.md#dispatching): at most
// `concurrency` attempts in flight in this process, and at most `perEndpoint` to any one endpoint,
// whose busy endpoints the claim query leaves out — so a slow or dead endpoint holds two slots
// while every other endpoint's deliveries go on. Each attempt is claimed with a lease and the
// attempt number as fence (delivery-store.ts): several processes may dispatch at once, and a
// process that dies mid-attempt leaves a lease that lapses and an attempt that is made again.
// A failing endpoint (8 failed attempts in a row) is slowed to one attempt every `failingPauseMs`
// (1 s) in this process until an attempt succeeds: a dead endpoint that refuses at once would
// otherwise take the process through its whole backlog as fast as connections fail.
// Claims are made ahead, a few per endpoint: each endpoint may hold up to `perEndpoint × 4` claimed
// deliveries, of which `perEndpoint` are sent at once and the rest wait in this process's queue
// for that endpoint; a finished attempt starts the next one from the queue without a query, and
// the endpoint is claimed for again only once its queue has run dry (one query pair for several
// deliveries instead of one per delivery: the throughput row of issue #13). A queued delivery is
// held by the same lease as one in flight; one that waited longer than a second has its endpoint
// read again before it is sent (a deleted or disabled endpoint gets nothing more), and one whose
// lease is close to lapsing is left for the lease to lapse.
// Runs in `paraph serve` (with its worker) and `paraph worker`; on shutdown it claims nothing more,
// hands its queued claims back (their attempt numbers restored) and waits for the attempts in
// flight (each ends within the 10 s deadline).
import { isDatabaseUnavailable } from '../db/dialect.ts'
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { JobBell } from '../jobs/job-bell.ts'
import { toIso } from '../lib/clock.ts'
import { Outage } from '../lib/outage.ts'
import { type DeliveryDeps, deliverOnce } from './deliver-once.ts'
import { claimDeliveries, dueDeliveries, releaseDeliveries } from './delivery-store.ts'
import { endpointsByIds } from './endpoint-store.ts'

export interface DispatcherOptions {
  concurrency?: number
  perEndpoint?: number
  /** Claimed deliveries one endpoint may hold (in flight and queued); default perEndpoint × 4. */
  heldPerEndpoint?: number
  pollMs?: number
  failingPauseMs?: number
}

/** A claimed delivery waiting in this process for a slot, with its endpoint as read at the claim. */
interface Queued {
  delivery: WebhookDeliveriesTable
  endpoint: WebhookEndpointsTable
  claimedAt: number
}

/** A queued delivery older than this (ms) has its endpoint read again before it is sent. */
const REREAD_AFTER_MS = 1000

export class WebhookDispatcher {
  readonly #deps: DeliveryDeps
  readonly #bell: JobBell
  readonly #concurrency: number
  readonly #perEndpoint: number
  readonly #heldPerEndpoint: number
  readonly #pollMs: number
  readonly #leaseMs: number
  readonly #failingPauseMs: number
  readonly #perEndpointInFlight = new Map<string, number>()
  /** Claimed deliveries waiting for a slot, per endpoint; the Map's order is the round-robin order. */
  readonly #queued = new Map<string, Queued[]>()
  #queuedCount = 0
  /** Failing endpoints of this process and when (injected clock, epoch ms) they may be tried again. */
  readonly #pausedUntil = new Map<string, number>()
  readonly #running = new Set<Promise<void>>()
  #stopping = false
  /** Attempts started since construction (drain's answer). */
  #startedTotal = 0
  /** An endpoint's queue ran dry since the last claim (what rings the bell). */
  #wantsClaim = false

  /** The database's outage, shared with the process's worker (one line per outage). */
  readonly #outage: Outage

  constructor(
    deps: DeliveryDeps & Partial<Pick<Deps, 'webhookBell' | 'dbOutage'>>,
    options: DispatcherOptions = {},
  ) {
    this.#deps = deps
    this.#bell = deps.webhookBell ?? new JobBell()
    this.#outage = deps.dbOutage ?? new Outage({ logger: deps.logger, clock: deps.clock, what: 'database' })
    this.#concurrency = options.concurrency ?? 32
    this.#perEndpoint = options.perEndpoint ?? 2
    this.#heldPerEndpoint = Math.max(this.#perEndpoint, options.heldPerEndpoint ?? this.#perEndpoint * 4)
    this.#pollMs = options.pollMs ?? 500
    this.#failingPauseMs = options.failingPauseMs ?? 1000
    // Past the send's own deadline and the longest wait in the queue, with room for the record: a
    // live attempt's lease never lapses.
    const queueRounds = Math.ceil(this.#heldPerEndpoint / this.#perEndpoint)
    this.#leaseMs = deps.webhookTimeoutMs * queueRounds + 60_000
  }

  get inFlight(): number {
    return this.#running.size
  }

  /** Claimed deliveries waiting in this process for a slot. */
  get queued(): number {
    return this.#queuedCount
  }

  /** Resolves once no attempt is in flight, those started from the queue meanwhile included (tests). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running])
  }

  #held(endpointId: string): number {
    return (this.#perEndpointInFlight.get(endpointId) ?? 0) + (this.#queued.get(endpointId)?.length ?? 0)
  }

  #paused(endpointId: string, now: number): boolean {
    const until = this.#pausedUntil.get(endpointId)
    return until !== undefined && until > now
  }

  /**
   * Starts queued deliveries into the free slots, endpoint by endpoint in turn, within each
   * endpoint's limit; returns how many started.
   */
  #startQueued(): number {
    let started = 0
    const now = this.#deps.clock.epochMs()
    let progress = true
    while (progress && this.#running.size < this.#concurrency && this.#queuedCount > 0) {
      progress = false
      for (const [endpointId, queue] of [...this.#queued]) {
        if (this.#running.size >= this.#concurrency) break
        if ((this.#perEndpointInFlight.get(endpointId) ?? 0) >= this.#perEndpoint) continue
        if (this.#paused(endpointId, now)) continue
        const next = queue.shift()!
        this.#queuedCount--
        // The endpoint goes to the back of the round.
        this.#queued.delete(endpointId)
        if (queue.length > 0) this.#queued.set(endpointId, queue)
        if (now - next.claimedAt > this.#leaseMs - this.#deps.webhookTimeoutMs - 5000) {
          // Too close to its lease's end to be sent and recorded within it: left to lapse.
          progress = true
          continue
        }
        this.#start(next, now - next.claimedAt > REREAD_AFTER_MS)
        started++
        progress = true
      }
    }
    return started
  }

  /** Starts what is queued, then claims due deliveries for the endpoints whose queue ran dry; returns how many started. */
  async fill(): Promise<number> {
    let started = this.#startQueued()
    if (this.#stopping) return started
    const room = this.#concurrency * 4 - this.#running.size - this.#queuedCount
    if (room <= 0) return started
    const now = this.#deps.clock.now()
    for (const [id, until] of this.#pausedUntil) if (until <= now.getTime()) this.#pausedUntil.delete(id)
    // Endpoints with enough in hand (more than a round queued), or paused, are not claimed for.
    const busy = new Set(this.#pausedUntil.keys())
    for (const id of new Set([...this.#perEndpointInFlight.keys(), ...this.#queued.keys()]))
      if (this.#held(id) > this.#perEndpoint || (this.#queued.get(id)?.length ?? 0) > 0) busy.add(id)
    const candidates = await dueDeliveries(this.#deps.db, now, [...busy], Math.min(room, 256))
    // Within the room and each endpoint's hold, then claimed in one statement; those another
    // process took meanwhile are simply not returned.
    const chosen: string[] = []
    const planned = new Map<string, number>()
    for (const candidate of candidates) {
      if (chosen.length >= room) break
      const n = planned.get(candidate.endpoint_id) ?? this.#held(candidate.endpoint_id)
      if (n >= this.#heldPerEndpoint) continue
      planned.set(candidate.endpoint_id, n + 1)
      chosen.push(candidate.id)
    }
    const claimed = await claimDeliveries(this.#deps.db, chosen, now, this.#leaseMs)
    const endpoints = await endpointsByIds(this.#deps.db, [...new Set(claimed.map((d) => d.endpoint_id))])
    const claimedAt = now.getTime()
    for (const delivery of claimed) {
      const queue = this.#queued.get(delivery.endpoint_id) ?? []
      queue.push({ delivery, endpoint: endpoints.get(delivery.endpoint_id)!, claimedAt })
      this.#queued.set(delivery.endpoint_id, queue)
      this.#queuedCount++
    }
    started += this.#startQueued()
    return started
  }

  #start(entry: Queued, reread: boolean): void {
    const { delivery } = entry
    const endpoint = delivery.endpoint_id
    this.#perEndpointInFlight.set(endpoint, (this.#perEndpointInFlight.get(endpoint) ?? 0) + 1)
    this.#startedTotal++
    const attempt = (reread ? endpointsByIds(this.#deps.db, [endpoint]) : Promise.resolve(null))
      .then((fresh) => deliverOnce(this.#deps, delivery, fresh?.get(endpoint) ?? entry.endpoint))
      .then(({ failing }) => {
        if (failing) this.#pausedUntil.set(endpoint, this.#deps.clock.epochMs() + this.#failingPauseMs)
        else this.#pausedUntil.delete(endpoint)
      })
      .catch((error: unknown) => {
        // Its lease lapses and the attempt is made again (at least once): a database away is said
        // once for the whole outage, anything else for this delivery.
        if (isDatabaseUnavailable(error)) this.#outage.failed(error, 'webhook dispatcher')
        else
          this.#deps.logger.error(
            { err: error, delivery_id: delivery.id },
            'webhook attempt could not be recorded',
          )
      })
      .finally(() => {
        const left = (this.#perEndpointInFlight.get(endpoint) ?? 1) - 1
        if (left === 0) this.#perEndpointInFlight.delete(endpoint)
        else this.#perEndpointInFlight.set(endpoint, left)
        this.#running.delete(attempt)
        if (this.#stopping) return
        this.#startQueued()
        // The database is asked again only when this endpoint's queue has run dry (or for the
        // poll's and publish's rings): one claim for several deliveries.
        if (!this.#queued.has(endpoint)) {
          this.#wantsClaim = true
          this.#bell.ring()
        }
      })
    this.#running.add(attempt)
  }

  /** Hands the queued claims back: their lease is lifted and their attempt number restored. */
  async #release(): Promise<void> {
    const entries = [...this.#queued.values()].flat()
    this.#queued.clear()
    this.#queuedCount = 0
    if (entries.length === 0) return
    try {
      await releaseDeliveries(
        this.#deps.db,
        entries.map((e) => ({ id: e.delivery.id, attempts: e.delivery.attempts })),
        toIso(this.#deps.clock.now()),
      )
    } catch (error) {
      // Their leases lapse instead: the deliveries are made later, not lost.
      this.#deps.logger.error({ err: error }, 'webhook dispatcher could not hand back its queued claims')
    }
  }

  /** Until `signal` aborts: fill the free slots, then wait for a ring (a new delivery, a freed slot) or the poll. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let wait = this.#pollMs
      try {
        await this.fill()
        this.#outage.recovered()
      } catch (error) {
        // One line per outage, and polled less and less often until the database is back.
        if (isDatabaseUnavailable(error)) wait = this.#outage.failed(error, 'webhook dispatcher')
        else this.#deps.logger.error({ err: error }, 'webhook dispatcher could not claim deliveries')
      }
      await this.#bell.wait(wait, signal)
    }
    this.#stopping = true
    await this.#release()
    await Promise.allSettled([...this.#running])
  }

  /** Delivers everything due now, as the loop would, and returns once nothing is due or in flight (tests, bench). */
  async drain(): Promise<number> {
    const before = this.#startedTotal
    for (;;) {
      this.#wantsClaim = false
      const started = await this.fill()
      if (this.#running.size === 0 && started === 0) {
        // Queued deliveries of a paused endpoint wait for its pause: hand them back.
        await this.#release()
        return this.#startedTotal - before
      }
      // As the loop waits for its bell: the database is asked again when a queue has run dry.
      while (this.#running.size > 0 && !this.#wantsClaim) await Promise.race(this.#running)
    }
  }
}
