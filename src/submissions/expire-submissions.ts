// docs/api.md#expiry: a submission whose `expires_at` has passed becomes `expired`
// (`submission.expired`). A sweep run by every worker every second: each due submission moves in
// its own transaction, guarded by the status it was read with, so several workers sweeping at once
// expire each exactly once (the loser's guarded UPDATE finds nothing and is skipped). A fully
// signed submission is not expired: its final PDF is being made (the lifecycle fence refuses it).
// The sweep is not scoped to an account: it is the service's own task over every account.
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import { toIso } from '../lib/clock.ts'
import { applySubmissionMove } from '../lifecycle/apply-submission-move.ts'
import { ACTIVE_STATUSES } from '../lifecycle/submission-moves.ts'

const BATCH = 200

const alreadyMoved = () => new ApiError('submission_already_finalized', 'moved by another worker')

/** Expires every submission due now; returns how many this call moved. */
export async function expireDueSubmissions(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
): Promise<number> {
  const due = await deps.db
    .selectFrom('submissions')
    .selectAll()
    .where('status', 'in', ACTIVE_STATUSES)
    .where('expires_at', '<=', toIso(deps.clock.now()))
    .where('all_signed_at', 'is', null)
    .orderBy('expires_at')
    .limit(BATCH)
    .execute()
  let moved = 0
  for (const submission of due) {
    try {
      await deps.db
        .transaction()
        .execute((tx) => applySubmissionMove(tx, deps, submission, 'expire', alreadyMoved))
      moved++
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
    }
  }
  return moved
}

export const expireSubmissionsTask = definePeriodicTask({
  name: 'submissions.expire',
  // The contract's "within 5 seconds" with margin.
  everyMs: 1000,
  run: async (deps: Deps) => {
    const expired = await expireDueSubmissions(deps)
    if (expired > 0) deps.logger.info({ expired }, 'submissions expired')
  },
})
