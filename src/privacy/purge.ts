// docs/privacy.md#purge: a purge of one ended submission, by request, by its retention policy or
// by an erasure. One transaction scrubs every row that holds the submission's personal data, sets
// `purged_at`, journals `submission.purged` and queues `submission.purge_files`; the files are
// then deleted at once by the caller and, whatever crashed, by that job (deleting a folder that is
// already gone finds nothing: a purge retried finishes the job). Routes that serve a document
// answer 410 `submission_purged` from the commit on, so no file is served in between.

import { Type } from 'typebox'
import type { Executor, Scope, SubmissionsTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { defineJob } from '../jobs/define-job.ts'
import { enqueue } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { recordSubmissionEvent } from '../lifecycle/apply-submission-move.ts'
import { FINAL_STATUSES } from '../lifecycle/submission-moves.ts'
import type { PurgeCause } from '../metrics/metrics.ts'
import {
  addressesOf,
  dropJobs,
  isHeld,
  scrubBulkRow,
  scrubIdempotentAnswers,
  scrubInternalTemplate,
  scrubJournal,
  scrubRequestLogs,
  scrubSigners,
  scrubSubmissionRow,
} from './purge-store.ts'

/** Why a submission cannot be purged now, or null: it is ended, not being finalized, and held by no hold. */
export async function purgeRefusal(db: Executor, submission: SubmissionsTable): Promise<ApiError | null> {
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
  if (await isHeld(db, submission.id)) {
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

export interface PurgeResult {
  submission: SubmissionsTable
  /** False when it was purged already (nothing done). */
  purged: boolean
}

/**
 * Purges one submission of the scope (found and refused by the caller's rules: `purgeRefusal`
 * again under the lock). A purged submission answers as it is: purging is idempotent.
 */
export async function purgeSubmission(
  deps: Deps,
  scope: Scope,
  submissionId: string,
  cause: PurgeCause,
  /** False when the caller scrubbed the request logs of a whole batch already (apply-retention.ts). */
  { scrubLogs = true }: { scrubLogs?: boolean } = {},
): Promise<PurgeResult> {
  const done = await deps.db.transaction().execute(async (tx) => {
    const locked = await tx
      .updateTable('submissions')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', submissionId)
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .returningAll()
      .executeTakeFirst()
    if (!locked)
      throw new ApiError('resource_not_found', `No submission ${submissionId} in this environment.`)
    if (locked.purged_at !== null) return { submission: locked, purged: false, folders: [] as string[] }
    const refusal = await purgeRefusal(tx, locked)
    if (refusal) throw refusal
    const at = toIso(deps.clock.now())
    const addresses = scrubLogs ? await addressesOf(tx, locked) : []
    await scrubSigners(tx, locked)
    await scrubRequestLogs(tx, locked, addresses)
    await scrubJournal(tx, locked)
    await dropJobs(tx, locked)
    await scrubIdempotentAnswers(tx, locked)
    await scrubBulkRow(tx, locked)
    const internalTemplate = await scrubInternalTemplate(tx, locked)
    const purged = await scrubSubmissionRow(tx, locked, at)
    await recordSubmissionEvent(tx, deps, purged, 'submission.purged', null, {
      submitterId: null,
      data: { cause },
    })
    const folders = foldersOf(scope, submissionId, internalTemplate)
    await enqueue(tx, deps, purgeFilesJob, { submission_id: submissionId, folders })
    return { submission: purged, purged: true, folders }
  })
  if (done.purged) {
    // At once, so the answer means "deleted"; the queued job deletes again whatever this misses.
    const blobs = await deleteFolders(deps, done.folders).catch((error: unknown) => {
      deps.logger.warn(
        { err: error, submission_id: submissionId },
        'purge: files left to the purge_files job',
      )
      return 0
    })
    deps.metrics.purge(cause, blobs)
    deps.logger.info({ submission_id: submissionId, cause, blobs }, 'submission purged')
  }
  return { submission: done.submission, purged: done.purged }
}
