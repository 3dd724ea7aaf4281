// Wakes this process's idle worker as soon as a write has committed, instead of at its next poll
// (issue #11: a 500 ms poll dwarfed a 150 ms finalization). The HTTP app rings it after every
// successful write request, once its transaction has committed; a worker in another process
// (`paraph worker`) still finds the job at its next poll.
export class JobBell {
  #rung = false
  #wake: (() => void) | null = null

  /** Ends the current idle wait, or the next one if the worker is busy. */
  ring(): void {
    this.#rung = true
    this.#wake?.()
  }

  /** Resolves after `ms`, at a ring, or when `signal` aborts; at once if rung since the last wait. */
  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.#rung || signal.aborted) {
      this.#rung = false
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        this.#wake = null
        this.#rung = false
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal.addEventListener('abort', done, { once: true })
      this.#wake = done
    })
  }
}
