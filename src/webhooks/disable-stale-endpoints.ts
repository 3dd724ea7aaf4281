// The sweep behind "disabled automatically after 7 days without success" (docs/api.md#health), for
// endpoints that fail no more attempts (their deliveries ran out of schedule): each worker runs it
// every minute; an endpoint is disabled once, with its pending deliveries dropped.
import type { Deps } from '../deps.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import { toIso } from '../lib/clock.ts'
import { dropPendingDeliveries } from './delivery-store.ts'
import { DISABLE_AFTER_MS, dueForDisabling } from './endpoint-health.ts'
import { endpointsFailingSince, lockEndpoint, updateHealth } from './endpoint-store.ts'

export async function disableStaleEndpoints(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now()
  const stale = await endpointsFailingSince(deps.db, toIso(new Date(now.getTime() - DISABLE_AFTER_MS)))
  let disabled = 0
  for (const { id } of stale) {
    const done = await deps.db.transaction().execute(async (tx) => {
      const row = await lockEndpoint(tx, id)
      if (!row || !dueForDisabling(row, now) || row.deleted_at !== null) return false
      await updateHealth(tx, id, { disabled_at: toIso(now) }, toIso(now))
      await dropPendingDeliveries(tx, id, 'endpoint disabled', toIso(now))
      return true
    })
    if (done) disabled++
  }
  return disabled
}

export const disableStaleEndpointsTask = definePeriodicTask({
  name: 'webhooks.disable_stale_endpoints',
  everyMs: 60 * 1000,
  run: async (deps: Deps) => {
    const disabled = await disableStaleEndpoints(deps)
    if (disabled > 0) deps.logger.warn({ disabled }, 'webhook endpoints disabled after 7 days of failures')
  },
})
