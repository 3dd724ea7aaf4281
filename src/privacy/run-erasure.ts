// docs/privacy.md#erasure: the `privacy.erasure` job purges the submissions an erasure found, in
// order and in batches (purge.ts), and ends it with its report and the journal event
// `erasure.completed`. A submission not ended or under a hold is reported, never purged. Run again after a crash it purges what is left
// (a purge is idempotent) and the first run to end the erasure wins.
import { Type } from 'typebox'
import { chunksOf } from '../db/batch.ts'
import type { Scope } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { appendEvent } from '../events/event-store.ts'
import { defineJob } from '../jobs/define-job.ts'
import { toIso } from '../lib/clock.ts'
import { toApiErasure } from './erasure-schemas.ts'
import { completeErasure, type ErasureItem, findErasureForJob } from './erasure-store.ts'
import { PURGE_BATCH, purgeSubmissions } from './purge.ts'

const REFUSAL_OUTCOME: Partial<Record<string, ErasureItem['outcome']>> = {
  submission_not_finalized: 'not_ended',
  legal_hold_active: 'held',
}

/** Purges the erasure's submissions, PURGE_BATCH per transaction; answers the report, in order. */
async function purgeAll(deps: Deps, scope: Scope, submissionIds: string[]): Promise<ErasureItem[]> {
  const report: ErasureItem[] = []
  for (const batch of chunksOf(submissionIds, PURGE_BATCH)) {
    for (const result of await purgeSubmissions(deps, scope, batch, 'erasure')) {
      if (result.outcome !== 'refused') {
        report.push({ submission_id: result.id, outcome: result.outcome })
        continue
      }
      const outcome = REFUSAL_OUTCOME[result.error.code]
      // Not found: the erasure found it in this scope and submissions are never deleted: a bug.
      if (!outcome) throw result.error
      report.push({ submission_id: result.id, outcome })
    }
  }
  return report
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
    const found = JSON.parse(erasure.report) as ErasureItem[]
    const report = await purgeAll(
      deps,
      scope,
      found.map((item) => item.submission_id),
    )
    await deps.db.transaction().execute(async (tx) => {
      const done = await completeErasure(tx, erasure.id, report, toIso(deps.clock.now()))
      if (!done) return
      await appendEvent(tx, deps, scope, { type: 'erasure.completed', data: { object: toApiErasure(done) } })
    })
  },
})
