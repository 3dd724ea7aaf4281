// Authentication without a database round trip on every request: a verified key's scope is kept
// in this process for one second. A revoked key therefore stops working within one second in
// every API process, and at once in the process that revoked it (the console's revoke route calls
// forget(); the CLI revokes from another process, which no in-process invalidation could reach). Only keys that exist are cached, so a flood of made-up keys
// cannot fill the cache; the cache is bounded all the same.
import type { Executor } from '../db/tables.ts'
import type { AuthenticatedKey } from '../http/caller.ts'
import type { Clock } from '../lib/clock.ts'
import { findActiveKey } from './account-store.ts'

export const KEY_CACHE_TTL_MS = 1000
const MAX_ENTRIES = 10_000

export class KeyCache {
  readonly #entries = new Map<string, { key: AuthenticatedKey; until: number }>()

  readonly db: Executor
  readonly clock: Clock
  constructor(db: Executor, clock: Clock) {
    this.db = db
    this.clock = clock
  }

  /** The cached scope while fresh, without touching the database. */
  peek(presented: string): AuthenticatedKey | undefined {
    const hit = this.#entries.get(presented)
    return hit && hit.until > this.clock.epochMs() ? hit.key : undefined
  }

  /** Drops a key revoked by this process, so its next request here is refused at once. */
  forget(keyId: string): void {
    for (const [presented, entry] of this.#entries) {
      if (entry.key.keyId === keyId) this.#entries.delete(presented)
    }
  }

  async find(presented: string): Promise<AuthenticatedKey | undefined> {
    const now = this.clock.epochMs()
    const hit = this.#entries.get(presented)
    if (hit && hit.until > now) return hit.key
    const key = await findActiveKey(this.db, presented)
    if (!key) {
      this.#entries.delete(presented)
      return undefined
    }
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!)
    this.#entries.set(presented, { key, until: now + KEY_CACHE_TTL_MS })
    return key
  }
}
