// Bounded concurrency for the HTML renderer: `size` renders at once, `queueLimit` more waiting in
// FIFO order, and each waiter gives up after `waitMs`. Beyond the queue a render is refused at once
// rather than piling up request bodies (up to 4 MB of HTML each) behind a busy Chromium: the
// caller's latency stays bounded by roughly two render timeouts, never by the length of a burst.
// Both refusals are `html_render_failed` (api-v1 §4.2 names no other render error) with a
// Retry-After header, since a retry a few seconds later usually finds a free slot.
import { ApiError } from '../errors.ts'

export type Release = () => void

interface Waiter {
  grant(release: Release): void
  refuse(error: Error): void
  timer: NodeJS.Timeout
}

const RETRY_AFTER = { 'Retry-After': '5' }

export class RenderSlots {
  private active = 0
  private readonly waiting: Waiter[] = []
  private closed = false

  constructor(
    private readonly size: number,
    private readonly queueLimit: number,
    private readonly waitMs: number,
  ) {}

  /** Renders holding a slot right now. */
  get inFlight(): number {
    return this.active
  }

  /**
   * Resolves with the function that gives the slot back (call it exactly once). Decides
   * synchronously whether the caller runs, waits or is refused, so calls made in one tick are
   * served in the order they were made.
   */
  acquire(): Promise<Release> {
    if (this.closed)
      return Promise.reject(new ApiError('html_render_failed', 'The HTML renderer is shut down.'))
    if (this.active < this.size) {
      this.active++
      return Promise.resolve(this.releaser())
    }
    if (this.waiting.length >= this.queueLimit) {
      const message = `The HTML renderer is busy (${this.size} renders running, ${this.queueLimit} waiting); retry in a few seconds.`
      return Promise.reject(new ApiError('html_render_failed', message, RETRY_AFTER))
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        refuse: reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1)
          const message = `The HTML renderer stayed busy for ${this.waitMs / 1000} s; retry in a few seconds.`
          reject(new ApiError('html_render_failed', message, RETRY_AFTER))
        }, this.waitMs),
      }
      this.waiting.push(waiter)
    })
  }

  /** Refuses every waiter; renders holding a slot finish on their own. */
  close(): void {
    this.closed = true
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.refuse(new ApiError('html_render_failed', 'The HTML renderer is shut down.'))
    }
  }

  private releaser(): Release {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      if (next) {
        // The slot passes straight to the oldest waiter: `active` is unchanged.
        clearTimeout(next.timer)
        next.grant(this.releaser())
      } else this.active--
    }
  }
}
