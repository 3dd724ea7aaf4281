// Every background job kind: its payload, retry schedule and handler. The mail, webhook delivery,
// expiry and finalization jobs join this list with their issues.
import type { Deps } from './deps.ts'
import type { JobCatalogue } from './jobs/worker.ts'

export function jobCatalogue(_deps: Deps): JobCatalogue {
  return {}
}
