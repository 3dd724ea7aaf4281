// The submission as events and webhooks carry it (`data.object` in docs/webhooks.md#the-body), read
// inside the transaction of the change so it shows the state the event describes.
import type { Tx } from '../db/tables.ts'

export interface SubmissionSnapshot {
  id: string
  status: string
  template_id: string
  metadata: Record<string, unknown>
  submitters: Array<{
    id: string
    email: string
    external_id: string | null
    status: string
    signed_at: string | null
  }>
  audit_log_url: string
  completed_at: string | null
}

export function auditLogUrl(publicUrl: string, submissionId: string): string {
  return `${publicUrl}/v1/submissions/${submissionId}/audit_log`
}

export async function snapshotSubmission(
  tx: Tx,
  publicUrl: string,
  submissionId: string,
): Promise<SubmissionSnapshot> {
  const submission = await tx
    .selectFrom('submissions')
    .selectAll()
    .where('id', '=', submissionId)
    .executeTakeFirstOrThrow()
  const submitters = await tx
    .selectFrom('submitters')
    .select(['id', 'email', 'external_id', 'status', 'signed_at'])
    .where('submission_id', '=', submissionId)
    .orderBy('position')
    .execute()
  return {
    id: submission.id,
    status: submission.status,
    template_id: submission.template_id,
    metadata: JSON.parse(submission.metadata) as Record<string, unknown>,
    submitters,
    audit_log_url: auditLogUrl(publicUrl, submission.id),
    completed_at: submission.completed_at,
  }
}
