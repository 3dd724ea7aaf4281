// docs/privacy.md#erasure: the `privacy.erasure` job purges each submission an erasure found, in
// order, and ends it with its report and the journal event `erasure.completed`. A submission not
// ended or under a hold is reported, never purged. Run again after a crash it purges what is left
// (a purge is idempotent) and the first run to end the erasure wins.
import { Type } from 'typebox'
import type { Scope } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { defineJob } from '../jobs/define-job.ts'
import { toIso } from '../lib/clock.ts'
import { toApiErasure } from './erasure-schemas.ts'
import { completeErasure, type ErasureItem, findErasureForJob } from './erasure-store.ts'
import { purgeSubmission } from './purge.ts'

const OUTCOME_OF: Partial<Record<string, ErasureItem['outcome']>> = {
  submission_not_finalized: 'not_ended',
  legal_hold_active: 'held',
}

async function outcomeOf(deps: Deps, scope: Scope, submissionId: string): Promise<ErasureItem['outcome']> {
  try {
    return (await purgeSubmission(deps, scope, submissionId, 'erasure')).purged ? 'purged' : 'already_purged'
  } catch (error) {
    const outcome = error instanceof ApiError ? OUTCOME_OF[error.code] : undefined
    if (!outcome) throw error
    return outcome
  }
}

export const erasureJob = defineJob({
  kind: 'privacy.erasure',
  payload: Type.Object({ erasure_id: Type.String() }),
  retrySchedule: [10, 60, 300, 1800],
  timeoutMs: 30 * 60 * 1000,
  handle: async (payload, _job, deps: Deps) => {
    const erasure = await findErasureForJob(deps.db, payload.erasure_id)
    if (erasure?.status !== 'pending') return
    const scope: Scope = { accountId: erasure.account_id, environment: erasure.environment }
    const report: ErasureItem[] = []
    for (const item of JSON.parse(erasure.report) as ErasureItem[]) {
      report.push({
        submission_id: item.submission_id,
        outcome: await outcomeOf(deps, scope, item.submission_id),
      })
    }
    await deps.db.transaction().execute(async (tx) => {
      const done = await completeErasure(tx, erasure.id, report, toIso(deps.clock.now()))
      if (!done) return
      await appendEvent(tx, deps, scope, { type: 'erasure.completed', data: { object: toApiErasure(done) } })
    })
  },
})
