// docs/privacy.md#purge: the routes that serve a submission's documents (its PDFs, its audit trail)
// answer 410 `submission_purged` once it was purged; GET /v1/submissions/{id} still answers it.
import type { SubmissionsTable } from '../db/tables.ts'
import { ApiError } from '../errors.ts'

export function refusePurged(submission: Pick<SubmissionsTable, 'id' | 'purged_at'>): void {
  if (submission.purged_at === null) return
  throw new ApiError(
    'submission_purged',
    `Submission ${submission.id} was purged on ${submission.purged_at}: its documents and personal data are deleted. POST /v1/verify still recognises its final PDF and audit trail.`,
  )
}
