// docs/privacy.md#purge: a purge of ended submissions, by request (one), by their retention policy or
// by an erasure (batches of up to 50). One transaction scrubs every row that holds their personal
// data, sets `purged_at`, journals `submission.purged` and queues `submission.purge_files` for each;
// the files are then deleted at once by the caller and, whatever crashed, by those jobs (deleting a
// folder that is already gone finds nothing: a purge retried finishes the job). Routes that serve a
// document answer 410 `submission_purged` from the commit on, so no file is served in between.

import { Type } from 'typebox'
import { lockForUpdate } from '../db/dialect.ts'
import type { Scope, SubmissionsTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { defineJob } from '../jobs/define-job.ts'
import { enqueueMany } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { recordSubmissionEvents } from '../lifecycle/apply-submission-move.ts'
import { FINAL_STATUSES } from '../lifecycle/submission-moves.ts'
import type { PurgeCause } from '../metrics/metrics.ts'
import {
  addressesOfSubmissions,
  dropJobs,
  heldAmong,
  type PurgeBatch,
  scrubBulkRows,
  scrubIdempotentAnswers,
  scrubInternalTemplates,
  scrubJournal,
  scrubRequestLogs,
  scrubSigners,
  scrubSubmissionRows,
} from './purge-store.ts'

/** Why a submission cannot be purged now, or null: it is ended, not being finalized, and held by no hold. */
export function purgeRefusal(submission: SubmissionsTable, held: boolean): ApiError | null {
  const ended =
    FINAL_STATUSES.includes(submission.status) &&
    !(submission.all_signed_at && submission.status !== 'completed')
  if (!ended) {
    return new ApiError(
      'submission_not_finalized',
      submission.all_signed_at
        ? `Submission ${submission.id} is fully signed and its final PDF is being made; purge it once it is completed.`
        : `Submission ${submission.id} is ${submission.status}: only an ended submission (completed, declined, expired or cancelled) can be purged. Cancel it first.`,
    )
  }
  if (held) {
    return new ApiError(
      'legal_hold_active',
      `Submission ${submission.id} is under a legal hold; release the hold (DELETE /v1/legal_holds/{id}) before purging it.`,
    )
  }
  return null
}

/** The blob folders of a submission: its own files, and the documents of its internal template. */
function foldersOf(scope: Scope, submissionId: string, internalTemplateId: string | null): string[] {
  const base = `${scope.accountId}/${scope.environment}`
  return [
    `${base}/submissions/${submissionId}`,
    ...(internalTemplateId ? [`${base}/templates/${internalTemplateId}`] : []),
  ]
}

export const purgeFilesJob = defineJob({
  kind: 'submission.purge_files',
  payload: Type.Object({ submission_id: Type.String(), folders: Type.Array(Type.String()) }),
  retrySchedule: [10, 60, 300, 1800, 7200, 21600],
  handle: async (payload, _job, deps: Deps) => {
    await deleteFolders(deps, payload.folders)
  },
})

async function deleteFolders(deps: Pick<Deps, 'blobs'>, folders: string[]): Promise<number> {
  let found = 0
  for (const folder of folders) found += await deps.blobs.deleteFolder(folder)
  return found
}

/** What a purge did to one submission it was asked for. */
export type PurgeOutcome =
  | { id: string; outcome: 'purged' | 'already_purged'; submission: SubmissionsTable }
  /** Not in the scope (404), not ended (409) or held (409): nothing done. */
  | { id: string; outcome: 'refused'; error: ApiError }

/** Submissions one transaction purges at most: a few dozen statements for all of them. */
export const PURGE_BATCH = 50

/**
 * Purges the submissions of the scope named by `submissionIds` (at most PURGE_BATCH) in one
 * transaction: each statement for the whole batch (purge-store.ts), so a batch costs about what one
 * submission does. Under the lock each is checked again (`purgeRefusal`); one that is refused is left
 * as it is and said so, the others are purged. A purged submission answers as it is: purging is
 * idempotent. Answers one outcome per id, in order.
 */
export async function purgeSubmissions(
  deps: Deps,
  scope: Scope,
  submissionIds: string[],
  cause: PurgeCause,
  /** False when the caller scrubbed the request logs of the batch already (apply-retention.ts). */
  { scrubLogs = true }: { scrubLogs?: boolean } = {},
): Promise<PurgeOutcome[]> {
  if (submissionIds.length > PURGE_BATCH) throw new Error(`purgeSubmissions: more than ${PURGE_BATCH} ids`)
  const done = await deps.db.transaction().execute(async (tx) => {
    // In id order: two workers purging overlapping batches wait for each other, never deadlock.
    const locked = await lockForUpdate(
      deps.engine,
      tx
        .selectFrom('submissions')
        .selectAll()
        .where('account_id', '=', scope.accountId)
        .where('environment', '=', scope.environment)
        .where('id', 'in', submissionIds)
        .orderBy('id'),
    ).execute()
    const held = await heldAmong(
      tx,
      locked.map((s) => s.id),
    )
    const outcomes = new Map<string, PurgeOutcome>()
    const due: SubmissionsTable[] = []
    for (const id of submissionIds) {
      const submission = locked.find((s) => s.id === id)
      if (!submission) {
        const error = new ApiError('resource_not_found', `No submission ${id} in this environment.`)
        outcomes.set(id, { id, outcome: 'refused', error })
      } else if (submission.purged_at !== null) {
        outcomes.set(id, { id, outcome: 'already_purged', submission })
      } else {
        const error = purgeRefusal(submission, held.has(id))
        if (error) outcomes.set(id, { id, outcome: 'refused', error })
        else if (!due.includes(submission)) due.push(submission)
      }
    }
    if (due.length === 0) return { outcomes, folders: [] as string[][] }
    const batch: PurgeBatch = {
      account_id: scope.accountId,
      environment: scope.environment,
      submissions: due,
    }
    const at = toIso(deps.clock.now())
    const addresses = scrubLogs
      ? await addressesOfSubmissions(
          tx,
          batch,
          due.map((s) => s.id),
        )
      : []
    await scrubSigners(tx, batch)
    await scrubRequestLogs(tx, batch, addresses)
    await scrubJournal(tx, batch)
    await dropJobs(tx, batch)
    await scrubIdempotentAnswers(tx, batch)
    await scrubBulkRows(tx, batch)
    const internalTemplates = await scrubInternalTemplates(tx, batch)
    const purged = new Map((await scrubSubmissionRows(tx, batch, at)).map((row) => [row.id, row]))
    await recordSubmissionEvents(
      tx,
      deps,
      'submission.purged',
      due.map((submission) => ({ submission, about: { submitterId: null, data: { cause } } })),
    )
    const folders = due.map((s) => foldersOf(scope, s.id, internalTemplates.get(s.id) ?? null))
    await enqueueMany(
      tx,
      deps,
      purgeFilesJob,
      due.map((s, i) => ({ submission_id: s.id, folders: folders[i]! })),
    )
    for (const { id } of due) outcomes.set(id, { id, outcome: 'purged', submission: purged.get(id)! })
    return { outcomes, folders }
  })
  const purgedIds = submissionIds.filter((id) => done.outcomes.get(id)?.outcome === 'purged')
  if (purgedIds.length > 0) {
    // At once, so the answer means "deleted"; the queued jobs delete again whatever this misses.
    let blobs = 0
    for (const folders of done.folders) {
      const found = await deleteFolders(deps, folders).catch((error: unknown) => {
        deps.logger.warn({ err: error, folders }, 'purge: files left to the purge_files job')
        return 0
      })
      blobs += found
      deps.metrics.purge(cause, found)
    }
    deps.logger.info({ submission_ids: purgedIds, cause, blobs }, 'submissions purged')
  }
  return submissionIds.map((id) => done.outcomes.get(id)!)
}

export interface PurgeResult {
  submission: SubmissionsTable
  /** False when it was purged already (nothing done). */
  purged: boolean
}

/** Purges one submission of the scope (purgeSubmissions); throws the refusal (404, 409) when refused. */
export async function purgeSubmission(
  deps: Deps,
  scope: Scope,
  submissionId: string,
  cause: PurgeCause,
): Promise<PurgeResult> {
  const [result] = await purgeSubmissions(deps, scope, [submissionId], cause)
  if (result!.outcome === 'refused') throw result!.error
  return { submission: result!.submission, purged: result!.outcome === 'purged' }
}
