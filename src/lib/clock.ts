/** The only source of "now" for domain code: injected through deps so tests move time instead of sleeping. */
export interface Clock {
  now(): Date
  /** The same instant as now(), as epoch milliseconds: no Date allocated on hot paths. */
  epochMs(): number
}

export const systemClock: Clock = { now: () => new Date(), epochMs: Date.now }

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  #ms: number
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#ms = new Date(start).getTime()
  }
  now(): Date {
    return new Date(this.#ms)
  }
  epochMs(): number {
    return this.#ms
  }
  advance(ms: number): void {
    this.#ms += ms
  }
  set(at: Date | string): void {
    this.#ms = new Date(at).getTime()
  }
}

/** Timestamps are stored as fixed-width ISO 8601 UTC text so they sort the same on SQLite and PostgreSQL. */
export function toIso(at: Date): string {
  return at.toISOString()
}
