// docs/api.md#bulk-send, the job: a worker creates a bulk send's pending rows in row order, a batch
// per transaction, each row exactly once. A row's submission and the row's result commit together,
// after a guarded UPDATE took the row out of `pending` (a second worker, or a retry of this one after
// a crash, finds it taken and skips it), and the submission carries the job and row under a unique
// index — the key derived from the job and row. One run does a bounded slice (the job lease is
// short), then queues the next run in its last transaction; the last run ends the job and journals
// `bulk_send.completed`.
import { Type } from 'typebox'
import type { BulkSendsTable, Scope, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { appendEvent } from '../events/event-store.ts'
import { declareJob, defineJob } from '../jobs/define-job.ts'
import { enqueue } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { publishEventDeclaration } from '../lifecycle/submission-jobs.ts'
import type { CommonOptions } from '../submissions/creation-schemas.ts'
import { insertNewSubmission, type NewSubmitter } from '../submissions/record-submission.ts'
import { type BulkSendCompletedData, toApiBulkSend } from './bulk-send-schemas.ts'
import { addCounts, endJob, lockActiveJob, pendingRows, settleRow } from './bulk-send-store.ts'

/** Rows per transaction: few enough to hold locks briefly, enough to share a commit's cost. */
const BATCH_ROWS = 50
/** One run stops after this long (or half its lease, if shorter) and queues the next. */
const SLICE_MS = 10_000

export const runBulkSendDeclaration = declareJob({
  kind: 'bulk_send.run',
  payload: Type.Object({ bulk_send_id: Type.String() }),
  retrySchedule: [5, 30, 120, 600, 1800],
})

/** What a row holds once checked: its submitters and its metadata (check-rows.ts). */
export interface StoredRowInput {
  submitters: NewSubmitter[]
  metadata: Record<string, string | number | boolean | null>
}

/** Ends a job whose rows are all settled: completed, or completed with errors; journaled. */
export async function finishJob(tx: Tx, deps: Deps, job: BulkSendsTable): Promise<BulkSendsTable> {
  const ended = await endJob(tx, job.id, {
    status: job.failed_count > 0 ? 'completed_with_errors' : 'completed',
    at: toIso(deps.clock.now()),
  })
  const scope: Scope = { accountId: ended.account_id, environment: ended.environment }
  const eventId = await appendEvent(tx, deps, scope, {
    type: 'bulk_send.completed',
    data: { object: toApiBulkSend(ended) } satisfies BulkSendCompletedData,
  })
  await enqueue(tx, deps, publishEventDeclaration, { event_id: eventId })
  return ended
}

/** Why a row can no longer be made now, though its check passed when the job was asked for. */
async function refusalNow(tx: Tx, deps: Deps, job: BulkSendsTable, options: CommonOptions) {
  const template = await tx
    .selectFrom('templates')
    .select('status')
    .where('id', '=', job.template_id)
    .where('account_id', '=', job.account_id)
    .where('environment', '=', job.environment)
    .executeTakeFirst()
  if (!template || template.status === 'archived') {
    return {
      column: 'template_id',
      code: 'template_archived',
      message: `template ${job.template_id} was archived after the bulk send was asked for; no submission can be made from it.`,
    }
  }
  if (options.expires_at && new Date(options.expires_at).getTime() <= deps.clock.now().getTime()) {
    return {
      column: 'expires_at',
      code: 'invalid_request',
      message: `expires_at (${options.expires_at}) had passed when the row's turn came.`,
    }
  }
  return null
}

/**
 * One batch in one transaction; false when the job has nothing left (ended, or just finished).
 * The next run is queued as due when the bulk send was asked for, keeping the job's place in the
 * queue: ahead of the mails and events its own rows queued, which a worker's other lanes send beside
 * it (a run queued as due now would wait behind every one of them still unsent, and the rows behind
 * the mails).
 */
async function runBatch(deps: Deps, id: string, slice: { more: boolean }): Promise<boolean> {
  return deps.db.transaction().execute(async (tx) => {
    const at = toIso(deps.clock.now())
    const job = await lockActiveJob(tx, id, at)
    if (!job) return false
    const rows = await pendingRows(tx, id, BATCH_ROWS)
    if (rows.length === 0) {
      await finishJob(tx, deps, job)
      return false
    }
    const options = JSON.parse(job.options) as CommonOptions
    const refusal = await refusalNow(tx, deps, job, options)
    const scope: Scope = { accountId: job.account_id, environment: job.environment }
    let created = 0
    let failed = 0
    for (const row of rows) {
      if (refusal) {
        if (await settleRow(tx, id, row.row, { status: 'failed', errors: JSON.stringify([refusal]) }, at))
          failed++
        continue
      }
      // Taken first: a second writer's UPDATE finds it no longer pending (or waits for this commit).
      if (!(await settleRow(tx, id, row.row, { status: 'created' }, at))) continue
      const input = JSON.parse(row.input) as StoredRowInput
      const submission = await insertNewSubmission(tx, deps, scope, {
        templateId: job.template_id,
        options: { ...options, metadata: input.metadata },
        submitters: input.submitters,
        bulkSend: { id, row: row.row },
      })
      await tx
        .updateTable('bulk_send_rows')
        .set({ submission_id: submission.id })
        .where('bulk_send_id', '=', id)
        .where('row', '=', row.row)
        .execute()
      created++
    }
    await addCounts(tx, id, { created, failed })
    if (slice.more) return true
    // The slice is over: the next run is queued with this batch, so a crash loses neither.
    await enqueue(tx, deps, runBulkSendDeclaration, { bulk_send_id: id }, { runAt: new Date(job.created_at) })
    return false
  })
}

/** `leaseMs`: the claim's lease (JOB_LEASE_SECONDS); a slice ends well within it. */
export async function runBulkSend(deps: Deps, id: string, leaseMs = 60_000): Promise<void> {
  const started = Date.now()
  const sliceMs = Math.min(SLICE_MS, leaseMs / 2)
  const slice = { more: true }
  while (true) {
    slice.more = Date.now() - started < sliceMs
    if (!(await runBatch(deps, id, slice))) return
  }
}

export const runBulkSendJob = defineJob({
  ...runBulkSendDeclaration,
  handle: async (payload, job, deps: Deps) => {
    await runBulkSend(deps, payload.bulk_send_id, job.leaseMs)
  },
})
