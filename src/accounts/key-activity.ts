// What each API key did (docs/deprecations.md#what-is-recorded): when it was last used, to the
// minute, and which routes it called each UTC day, for `paraph keys list` and `paraph deprecations
// notify`. Recording must not cost the request: `seen` decides in memory whether anything is new (a
// key's first call in a minute, its first call of a route in a day) and only then starts a write,
// which runs after the answer and never throws into it. Each process writes at most once a minute
// per key and once per key, route and day; several processes may each write once, harmlessly: the
// minute only moves forward and a route-day row is inserted or left alone.
import type { FastifyBaseLogger } from 'fastify'
import type { Environment, Executor } from '../db/tables.ts'
import type { AuthenticatedKey } from '../http/caller.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import type { Clock } from '../lib/clock.ts'

const NAMES = new WeakMap<object, string>()

/**
 * How a route is recorded: its method and pattern, `GET /v1/submissions/:id` (a HEAD request is
 * counted as the GET it mirrors). Made once per route, not per request.
 */
export function routeName(route: { method: string; url: string }): string {
  let name = NAMES.get(route)
  if (name === undefined) {
    name = `${route.method} ${route.url}`
    NAMES.set(route, name)
  }
  return name
}

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/** `YYYY-MM-DD`, UTC. */
export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10)
}

export class KeyActivity {
  /** Key id → the minute (epoch minutes) this process last wrote as its `last_used_at`. */
  readonly #minuteWritten = new Map<string, number>()
  /** Key id → routes already recorded for `#day` (epoch days); emptied when the day changes. */
  readonly #routesToday = new Map<string, Set<string>>()
  #day = -1
  readonly #pending = new Set<Promise<void>>()

  readonly db: Executor
  readonly clock: Clock
  readonly logger: FastifyBaseLogger
  constructor(db: Executor, clock: Clock, logger: FastifyBaseLogger) {
    this.db = db
    this.clock = clock
    this.logger = logger
  }

  /** Records one call of `route` (`GET /v1/submissions/:id`) by `key`; synchronous, usually a no-op. */
  seen(key: AuthenticatedKey, route: string): void {
    // A console session is a member, not a key: nothing to record (console contract).
    if (key.via === 'console') return
    const now = this.clock.epochMs()
    const minute = Math.floor(now / MINUTE_MS)
    if (this.#minuteWritten.get(key.keyId) !== minute) {
      this.#minuteWritten.set(key.keyId, minute)
      this.#background(this.#writeLastUsed(key.keyId, minute), () => this.#minuteWritten.delete(key.keyId))
    }
    const day = Math.floor(now / DAY_MS)
    if (day !== this.#day) {
      this.#routesToday.clear()
      this.#day = day
    }
    let routes = this.#routesToday.get(key.keyId)
    if (!routes) {
      routes = new Set()
      this.#routesToday.set(key.keyId, routes)
    }
    if (!routes.has(route)) {
      routes.add(route)
      const recorded = routes
      const row = { ...key, route, day: utcDay(now) }
      this.#background(this.#writeRouteDay(row), () => recorded.delete(route))
    }
  }

  /** Resolves once every write started so far has ended (tests; shutdown, before the pool closes). */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending)
  }

  /** Runs a write off the request: a failure is logged and forgotten, so a later call tries again. */
  #background(write: Promise<void>, forget: () => void): void {
    const running = write
      .catch((error: unknown) => {
        forget()
        this.logger.warn({ err: error }, 'could not record API key activity')
      })
      .finally(() => this.#pending.delete(running))
    this.#pending.add(running)
  }

  async #writeLastUsed(keyId: string, minute: number): Promise<void> {
    const at = new Date(minute * MINUTE_MS).toISOString()
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', keyId)
      // Another process may have written a later minute already: never move it back.
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute()
  }

  async #writeRouteDay(row: {
    keyId: string
    accountId: string
    environment: Environment
    route: string
    day: string
  }): Promise<void> {
    await this.db
      .insertInto('key_route_days')
      .values({
        key_id: row.keyId,
        account_id: row.accountId,
        environment: row.environment,
        route: row.route,
        day: row.day,
      })
      .onConflict((oc) => oc.columns(['key_id', 'route', 'day']).doNothing())
      .execute()
  }
}

/**
 * Route-day rows are kept this many UTC days: the 30 `paraph deprecations notify` looks back over
 * (deprecation-notices.ts), and a few more for an operator reading them.
 */
export const ROUTE_DAYS_KEPT = 35

/** Deletes route-day rows older than ROUTE_DAYS_KEPT days (housekeeping); answers how many. */
export async function purgeOldRouteDays(db: Executor, clock: Clock): Promise<number> {
  const firstKept = utcDay(clock.epochMs() - (ROUTE_DAYS_KEPT - 1) * DAY_MS)
  const result = await db.deleteFrom('key_route_days').where('day', '<', firstKept).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** A key as `paraph keys list` shows it. */
export interface KeyListing {
  id: string
  environment: Environment
  hint: string
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
  name: string | null
}

/** Every key of an account, oldest first, with when it was last used. */
export async function listAccountKeys(db: Executor, accountId: string): Promise<KeyListing[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'environment', 'key_hint', 'created_at', 'revoked_at', 'last_used_at', 'name'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map(({ key_hint, ...row }) => ({
    id: row.id,
    environment: row.environment,
    hint: key_hint,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    name: row.name,
  }))
}

/** A key's routes per day, kept for the deprecation notices' 30 days. */
export const purgeRouteDaysTask = definePeriodicTask({
  name: 'key_route_days.purge',
  everyMs: 60 * 60 * 1000,
  run: async (deps: { db: Executor; clock: Clock; logger: FastifyBaseLogger }) => {
    const purged = await purgeOldRouteDays(deps.db, deps.clock)
    if (purged > 0) deps.logger.info({ purged }, "API keys' route days past 35 days purged")
  },
})
