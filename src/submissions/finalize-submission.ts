// The `submission.finalize` job, queued with the last signature: makes the final
// PDF (every document, every value drawn, the SES footer, a PAdES seal) and the sealed audit trail
// in a child process, stores them, then — in one transaction — records them and moves the
// submission to `completed` (`submission.completed`). Never a completed submission without its
// final PDF; never a fully signed one left unfinished: the job is durable, retried on its schedule,
// and fenced (a second attempt finding the submission completed does nothing; one whose move loses
// to another removes the files it stored). The completion notices are queued with the move. A
// document that cannot be finalized shows why on the submission (`finalization_error`) and is
// retried a bounded number of times.
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { eventsOfSubmission } from '../events/event-store.ts'
import { attemptsOf, defineJob } from '../jobs/define-job.ts'
import type { ClaimedJob } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { applySubmissionMove } from '../lifecycle/apply-submission-move.ts'
import { finalizeSubmissionDeclaration } from '../lifecycle/submission-jobs.ts'
import { withFinalPdf } from '../pdf/audit/audit-record.ts'
import { finalizePdf } from '../pdf/finalizer/finalize-pdf.ts'
import { findTemplate } from '../templates/template-store.ts'
import { auditRecordOf } from './audit-trail.ts'
import { queueCompletionMails } from './completion-mails.ts'
import { membersOf } from './group-member-store.ts'
import { inWorkDirectory, stampsOf, valuesOfSubmitters, writeDocuments } from './pdf-inputs.ts'
import {
  findSubmissionForJob,
  lockSubmission,
  recordFinalizeError,
  submittersOf,
} from './submission-store.ts'

/** Writes the finalization's inputs to a private directory, runs the child, stores what it made. */
async function makeFiles(deps: Deps, submission: SubmissionsTable, attempt: number, signedAt: string) {
  const scope = { accountId: submission.account_id, environment: submission.environment }
  const template = await findTemplate(deps.db, scope, submission.template_id)
  if (!template) throw new Error('the template of the submission is missing')
  const submitters = (await submittersOf(deps.db, scope, [submission.id])) as SubmittersTable[]
  const events = await eventsOfSubmission(deps.db, scope, submission.id)
  // docs/api.md#signer-groups: the groups' members, for the trail and the signer's caption.
  const members = await membersOf(
    deps.db,
    scope,
    submitters.filter((s) => s.grouped === 1).map((s) => s.id),
  )
  return inWorkDirectory('paraph-final-', async (dir, write) => {
    const documents = await writeDocuments(deps, template.documents, dir)
    const audit = auditRecordOf(submission, template, submitters, events, signedAt, members)
    const made = await finalizePdf({
      submissionId: submission.id,
      documents,
      documentNames: template.documents.map((d) => d.name),
      stamps: await stampsOf(valuesOfSubmitters(template.fields, submitters), deps, write),
      audit,
      signedAt,
      identity: identitySource(deps),
      ...(deps.config.tsaUrl !== undefined ? { tsaUrl: deps.config.tsaUrl } : {}),
      finalPath: join(dir, 'final.pdf'),
      auditPath: join(dir, 'audit.pdf'),
    })
    const base = `${submission.account_id}/${submission.environment}/submissions/${submission.id}`
    // Named by attempt: an attempt whose lease lapsed never overwrites the files another recorded.
    const keys = {
      final_pdf_key: `${base}/final-${attempt}.pdf`,
      audit_pdf_key: `${base}/audit-${attempt}.pdf`,
      audit_json_key: `${base}/audit-${attempt}.json`,
    }
    const record = withFinalPdf(audit, made.final.sha256, made.facts)
    const storing = performance.now()
    await Promise.all([
      deps.blobs.putFile(keys.final_pdf_key, join(dir, 'final.pdf'), 'application/pdf'),
      deps.blobs.putFile(keys.audit_pdf_key, join(dir, 'audit.pdf'), 'application/pdf'),
      deps.blobs.put(keys.audit_json_key, Buffer.from(JSON.stringify(record)), 'application/json'),
    ])
    deps.logger.info(
      {
        submission_id: submission.id,
        final_pdf_bytes: made.final.bytes,
        audit_pdf_bytes: made.audit.bytes,
        ms: { ...made.timings, store: Math.round(performance.now() - storing) },
      },
      'final PDF and audit trail sealed and stored',
    )
    return { ...keys, final_pdf_sha256: made.final.sha256, audit_pdf_sha256: made.audit.sha256 }
  })
}

export function identitySource({ config }: Pick<Deps, 'config'>) {
  return {
    dataDir: config.dataDir,
    ...(config.signingCertP12 !== undefined ? { p12: config.signingCertP12 } : {}),
    ...(config.signingCertPassword !== undefined ? { password: config.signingCertPassword } : {}),
  }
}

const completedMeanwhile = () => new ApiError('submission_already_finalized', 'completed by another attempt')

/** Finalizes the submission; true when this attempt completed it (false: nothing to do, or lost a race). */
export async function finalizeSubmission(
  deps: Deps,
  submissionId: string,
  job: Pick<ClaimedJob, 'attempt'>,
): Promise<boolean> {
  const submission = await findSubmissionForJob(deps.db, submissionId)
  if (!submission || submission.status === 'completed') return false
  if (submission.all_signed_at === null) {
    deps.logger.warn(
      { submission_id: submissionId },
      'finalization asked for a submission not fully signed; nothing done',
    )
    return false
  }
  const signedAt = toIso(deps.clock.now())
  let files: Awaited<ReturnType<typeof makeFiles>>
  try {
    files = await makeFiles(deps, submission, job.attempt, signedAt)
  } catch (error) {
    await recordFinalizeError(deps.db, submission, (error as Error).message ?? String(error))
    throw error
  }
  const completed = await deps.db.transaction().execute(async (tx) => {
    const current = await lockSubmission(tx, submission)
    if (current.status === 'completed') return false
    const moved = await applySubmissionMove(tx, deps, current, 'complete', completedMeanwhile, {
      completion: { ...files, completed_at: signedAt },
    })
    // In the move's transaction, which only one attempt can commit: one notice per signer.
    await queueCompletionMails(tx, deps, moved)
    return true
  })
  if (!completed) {
    const keys = [files.final_pdf_key, files.audit_pdf_key, files.audit_json_key]
    await Promise.allSettled(keys.map((key) => deps.blobs.delete(key)))
  }
  return completed
}

/** The finalization job: declared by lifecycle/, which queues it with the last signature. */
export const finalizeSubmissionJob = defineJob({
  ...finalizeSubmissionDeclaration,
  async handle(payload, job, deps: Deps) {
    const started = performance.now()
    const seconds = () => (performance.now() - started) / 1000
    try {
      // A run with nothing to do (completed meanwhile) is not a finalization.
      if (await finalizeSubmission(deps, payload.submission_id, job))
        deps.metrics.finalization('completed', seconds())
    } catch (error) {
      // The worker retries on the declared schedule while attempts are left.
      const last = job.attempt >= attemptsOf(finalizeSubmissionDeclaration)
      deps.metrics.finalization(last ? 'failed' : 'retried', seconds())
      throw error
    }
  },
})
