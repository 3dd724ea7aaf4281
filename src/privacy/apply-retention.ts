// docs/privacy.md#retention-policy: every worker applies the retention policies every 10 seconds,
// for at most 2 seconds at a time (the worker's loop waits for its periodic tasks: a longer run
// would hold its mails and finalizations back; a backlog is worked off slice by slice). For
// each policy in force it reads, through the index `submissions_retention`, the ended submissions
// of its scope whose end lies more than `delete_after_days` ago, in end order, whose status the
// policy names and that no legal hold in force keeps, and purges them in batches of up to 50, each
// one transaction (purge.ts), four batches at once. Several workers at once purge each submission
// once: the second finds `purged_at` set under the lock and leaves it.

import { sql } from 'kysely'
import { chunksOf } from '../db/batch.ts'
import type { Executor, Scope } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { definePeriodicTask } from '../jobs/define-periodic-task.ts'
import { toIso } from '../lib/clock.ts'
import { PURGE_BATCH, purgeSubmissions } from './purge.ts'
import { addressesOfSubmissions, scrubRequestLogs } from './purge-store.ts'
import { type EndedStatus, policiesInForce } from './retention-policy-store.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** Submissions read per query; a run goes on until nothing is due or its time is up. */
const BATCH = 200
/**
 * Batches in flight at once: each is a transaction of some 30 short statements, so on PostgreSQL
 * the round trips, not the server, bound one at a time; four leave the pool's other connections to
 * the API. On SQLite they take turns on the one connection.
 */
const PURGE_LANES = 4
/**
 * A periodic run stops starting purges after this long; the next run goes on where it stopped.
 * Short: the worker loop awaits its periodic tasks before it claims jobs again.
 */
const RUN_BUDGET_MS = 2_000

export interface DueSubmission {
  id: string
  status: string
  ended_at: string
}

/**
 * Up to `limit` submissions of the scope the policy deletes now, oldest end first: one range of
 * the index per status the policy names (each read in end order and stopped at `limit`), merged.
 */
export async function dueForPurge(
  db: Executor,
  scope: Scope,
  policy: { delete_after_days: number; applies_to: EndedStatus[] },
  now: Date,
  limit: number,
): Promise<DueSubmission[]> {
  const cutoff = toIso(new Date(now.getTime() - policy.delete_after_days * DAY_MS))
  const perStatus = await Promise.all(
    policy.applies_to.map((status) =>
      db
        .selectFrom('submissions')
        .select(['id', 'status', 'ended_at'])
        .where('account_id', '=', scope.accountId)
        .where('environment', '=', scope.environment)
        .where('status', '=', status)
        .where('purged_at', 'is', null)
        .where('ended_at', '<=', cutoff)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('legal_hold_submissions')
                .innerJoin('legal_holds', 'legal_holds.id', 'legal_hold_submissions.hold_id')
                .select(sql<number>`1`.as('held'))
                .whereRef('legal_hold_submissions.submission_id', '=', 'submissions.id')
                .where('legal_holds.released_at', 'is', null),
            ),
          ),
        )
        .orderBy('ended_at')
        .orderBy('id')
        .limit(limit)
        .$castTo<DueSubmission>()
        .execute(),
    ),
  )
  return perStatus
    .flat()
    .sort((a, b) =>
      a.ended_at === b.ended_at ? a.id.localeCompare(b.id) : a.ended_at.localeCompare(b.ended_at),
    )
    .slice(0, limit)
}

export interface RetentionPlan {
  scope: Scope
  delete_after_days: number
  applies_to: EndedStatus[]
  due: DueSubmission[]
}

/** What the policies would purge now (`paraph purge --dry-run`): every due submission, per scope. */
export async function retentionPlan(deps: Pick<Deps, 'db' | 'clock'>): Promise<RetentionPlan[]> {
  const plans: RetentionPlan[] = []
  for (const policy of await policiesInForce(deps.db)) {
    const due = await dueForPurge(deps.db, policy.scope, policy, deps.clock.now(), Number.MAX_SAFE_INTEGER)
    plans.push({ ...policy, due })
  }
  return plans
}

/**
 * Purges what the policies delete now, until nothing is due or `budgetMs` has passed; answers how
 * many it purged. A submission that cannot be purged any more (a hold placed meanwhile) is skipped.
 */
export async function applyRetention(deps: Deps, budgetMs = RUN_BUDGET_MS): Promise<number> {
  const started = performance.now()
  let purged = 0
  for (const policy of await policiesInForce(deps.db)) {
    const skipped = new Set<string>()
    for (;;) {
      const due = (
        await dueForPurge(deps.db, policy.scope, policy, deps.clock.now(), BATCH + skipped.size)
      ).filter((s) => !skipped.has(s.id))
      if (due.length === 0) break
      const ids = due.map((s) => s.id)
      // The request logs once for the whole batch, before its purges: one pass over the scope's
      // week of logs rather than one per submission (docs/benchmarks.md, purge). A crash after it
      // leaves the batch due; the next run purges it.
      const scope = { account_id: policy.scope.accountId, environment: policy.scope.environment }
      const addresses = await addressesOfSubmissions(deps.db, scope, ids)
      await deps.db.transaction().execute((tx) => scrubRequestLogs(tx, scope, addresses))
      const batches = chunksOf(ids, PURGE_BATCH)
      let next = 0
      const lane = async () => {
        while (next < batches.length && performance.now() - started <= budgetMs) {
          const batch = batches[next++]!
          const outcomes = await purgeSubmissions(deps, policy.scope, batch, 'policy', { scrubLogs: false })
          for (const result of outcomes) {
            if (result.outcome === 'purged') purged++
            else if (result.outcome === 'refused') skipped.add(result.id)
          }
        }
      }
      await Promise.all(Array.from({ length: PURGE_LANES }, lane))
      if (performance.now() - started > budgetMs) return purged
    }
  }
  return purged
}

export const applyRetentionTask = definePeriodicTask({
  name: 'privacy.retention',
  everyMs: 10_000,
  run: async (deps: Deps) => {
    const purged = await applyRetention(deps)
    if (purged > 0) deps.logger.info({ purged }, 'submissions purged by their retention policy')
  },
})
