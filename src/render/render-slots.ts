// Bounded concurrency for the HTML renderer, shared fairly between accounts
// (docs/security.md#sharing-scarce-workers-fairly). One owner (an account) runs at most `perOwner`
// renders at once and keeps at most `queuePerOwner` waiting; `reserve` more slots exist that only
// another owner can take, so a flood of slow renders from one key never makes another account's
// render wait behind it (it had every slot and the whole queue: the others were refused "busy" at
// once). When a slot frees, it goes to the waiting owner running the fewest renders, then with the
// fewest waiting, the oldest waiter first among equals. Each waiter gives up after `waitMs`; beyond
// the queue a render is refused at once rather than piling up request bodies (up to 4 MB of HTML
// each) behind a busy Chromium. Every refusal carries a retry hint (Retry-After), since a retry a
// few seconds later usually finds a free slot, and says whose limit was reached: an owner whose own
// waiting places are full, or whose wait ran out while its own renders held all `perOwner` of its
// slots, is refused `account_limit` (the API's 429, a limit the caller reached itself, as Stripe's
// concurrency limiter answers); the whole queue full, or a wait spent behind other owners' renders,
// is `busy` (the API's 500 `html_render_failed`: the service lacked room).
import { RenderError } from './render-error.ts'

export type Release = () => void

export interface SlotLimits {
  /** Renders of one owner at once. */
  perOwner: number
  /** Slots beyond `perOwner`: no owner holds more than `perOwner`, so these are left to the others. */
  reserve: number
  /** Renders waiting, in all and of one owner. */
  queue: number
  queuePerOwner: number
  /** How long a render may wait for a slot. */
  waitMs: number
}

interface Waiter {
  owner: string
  grant(release: Release): void
  refuse(error: Error): void
  timer: NodeJS.Timeout
}

const RETRY_AFTER_SECONDS = 5
const busy = (message: string) => new RenderError('busy', message, RETRY_AFTER_SECONDS)
const accountLimit = (message: string) => new RenderError('account_limit', message, RETRY_AFTER_SECONDS)

export class RenderSlots {
  private active = 0
  private readonly activeBy = new Map<string, number>()
  private readonly waiting: Waiter[] = []
  private readonly size: number
  private closed = false

  private readonly limits: SlotLimits
  constructor(limits: SlotLimits) {
    this.limits = limits
    this.size = limits.perOwner + limits.reserve
  }

  /** Renders holding a slot right now. */
  get inFlight(): number {
    return this.active
  }

  /**
   * Resolves with the function that gives the slot back (call it exactly once). Decides
   * synchronously whether the caller runs, waits or is refused, so calls made in one tick are
   * served in the order they were made.
   */
  acquire(owner = ''): Promise<Release> {
    if (this.closed)
      return Promise.reject(new RenderError('render_failed', 'The HTML renderer is shut down.'))
    if (this.canRun(owner)) return Promise.resolve(this.take(owner))
    const { queue, queuePerOwner, waitMs } = this.limits
    if (this.waiting.length >= queue) {
      return Promise.reject(
        busy(
          `The HTML renderer is busy (${this.active} renders running, ${this.waiting.length} waiting); retry in a few seconds.`,
        ),
      )
    }
    const mine = this.waiting.filter((w) => w.owner === owner).length
    if (mine >= queuePerOwner) {
      return Promise.reject(
        accountLimit(
          `Too many concurrent HTML renders for this account (${this.runningOf(owner)} running, ${mine} waiting): ${this.limitOf()}; retry in a few seconds, or send fewer renders at once.`,
        ),
      )
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        grant: resolve,
        refuse: reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1)
          reject(this.waitedTooLong(owner, waitMs))
        }, waitMs),
      }
      this.waiting.push(waiter)
    })
  }

  /** The per-account limit, as the messages name it. */
  private limitOf(): string {
    const { perOwner, queuePerOwner } = this.limits
    return `its concurrent-render limit is ${perOwner} at once and ${queuePerOwner} waiting`
  }

  /** A wait that ran out: behind the owner's own renders (all its slots held) or behind others'. */
  private waitedTooLong(owner: string, waitMs: number): RenderError {
    const running = this.runningOf(owner)
    if (running >= this.limits.perOwner) {
      return accountLimit(
        `This render waited ${waitMs / 1000} s behind this account's own ${running} running renders (${this.limitOf()}); retry in a few seconds, or send fewer renders at once.`,
      )
    }
    return busy(`The HTML renderer stayed busy for ${waitMs / 1000} s; retry in a few seconds.`)
  }

  /** Refuses every waiter; renders holding a slot finish on their own. */
  close(): void {
    this.closed = true
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.refuse(new RenderError('render_failed', 'The HTML renderer is shut down.'))
    }
  }

  private runningOf(owner: string): number {
    return this.activeBy.get(owner) ?? 0
  }

  private canRun(owner: string): boolean {
    return this.active < this.size && this.runningOf(owner) < this.limits.perOwner
  }

  private take(owner: string): Release {
    this.active++
    this.activeBy.set(owner, this.runningOf(owner) + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      this.active--
      const left = this.runningOf(owner) - 1
      if (left === 0) this.activeBy.delete(owner)
      else this.activeBy.set(owner, left)
      this.dispatch()
    }
  }

  /** Hands free slots to waiters, the fairest first (nextWaiter). */
  private dispatch(): void {
    for (;;) {
      const next = this.nextWaiter()
      if (!next) return
      this.waiting.splice(this.waiting.indexOf(next), 1)
      clearTimeout(next.timer)
      next.grant(this.take(next.owner))
    }
  }

  /** Of the owners below their cap: fewest running, then fewest waiting, then the oldest waiter. */
  private nextWaiter(): Waiter | undefined {
    const waitingBy = new Map<string, number>()
    for (const { owner } of this.waiting) waitingBy.set(owner, (waitingBy.get(owner) ?? 0) + 1)
    // A running render weighs more than any number of waiting ones (the queue holds a handful).
    const load = (owner: string) => this.runningOf(owner) * 1e6 + waitingBy.get(owner)!
    let next: Waiter | undefined
    for (const waiter of this.waiting) {
      if (this.canRun(waiter.owner) && (!next || load(waiter.owner) < load(next.owner))) next = waiter
    }
    return next
  }
}
