// Every background job kind: its payload, retry schedule and handler. The mail, webhook delivery,
// expiry and finalization jobs join this list with their issues.
import type { Deps } from './deps.ts'
import { purgeExpiredIdempotencyKeys } from './http/idempotency.ts'
import type { Housekeeping, JobCatalogue } from './jobs/worker.ts'

export function jobCatalogue(_deps: Deps): JobCatalogue {
  return {}
}

/** Periodic clean-ups run by every worker; each is a single idempotent statement. */
export function housekeeping(deps: Deps): Housekeeping[] {
  return [
    {
      everyMs: 10 * 60 * 1000,
      run: async () => {
        const purged = await purgeExpiredIdempotencyKeys(deps.db, deps.clock)
        if (purged > 0) deps.logger.info({ purged }, 'expired idempotency keys purged')
      },
    },
  ]
}
