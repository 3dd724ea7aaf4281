// The submission as events and webhooks carry it (`data.object` in docs/webhooks.md#the-body), read
// inside the transaction of the change so it shows the state the event describes.
import type { SubmissionsTable, Tx } from '../db/tables.ts'

export interface SubmissionSnapshot {
  id: string
  status: string
  template_id: string
  /** docs/api.md#bulk-send: the bulk send that made it, or null. */
  bulk_send_id: string | null
  metadata: Record<string, unknown> | null
  /** docs/api.md#reminders: the effective policy, null when off. */
  reminders: { first_after_hours: number; every_hours: number; max_count: number } | null
  submitters: Array<{
    id: string
    /** A signer group's is null until a member signs or declines (docs/api.md#signer-groups). */
    email: string | null
    external_id: string | null
    status: string
    signed_at: string | null
    reminders_sent: number
    next_reminder_at: string | null
    /** Only on a signer group: its people, without their links. */
    members?: SnapshotMember[]
  }>
  audit_log_url: string
  completed_at: string | null
  /** docs/privacy.md#purge: set once purged; the personal values are null from then on. */
  purged_at: string | null
}

/** The policy a submission row keeps (migration 0022), as the API answers it; null when off. */
export function reminderPolicyOf(
  row: Pick<SubmissionsTable, 'reminder_first_hours' | 'reminder_every_hours' | 'reminder_max_count'>,
): SubmissionSnapshot['reminders'] {
  const { reminder_first_hours: first, reminder_every_hours: every, reminder_max_count: max } = row
  if (first === null || every === null || max === null) return null
  return { first_after_hours: first, every_hours: every, max_count: max }
}

export function auditLogUrl(publicUrl: string, submissionId: string): string {
  return `${publicUrl}/v1/submissions/${submissionId}/audit_log`
}

/** A member of a signer group as events and webhooks carry them: who, and where they stand. */
export interface SnapshotMember {
  id: string
  email: string
  name: string | null
  status: string
  signed_at: string | null
}

export async function snapshotSubmission(
  tx: Tx,
  publicUrl: string,
  submissionId: string,
): Promise<SubmissionSnapshot> {
  const [snapshot] = await snapshotSubmissions(tx, publicUrl, [submissionId])
  return snapshot!
}

/**
 * The snapshots of several submissions (a batch of purges) in three reads, in the order of
 * `submissionIds`; every one must exist (the caller holds it in its transaction).
 */
export async function snapshotSubmissions(
  tx: Tx,
  publicUrl: string,
  submissionIds: string[],
): Promise<SubmissionSnapshot[]> {
  if (submissionIds.length === 0) return []
  const submissions = await tx
    .selectFrom('submissions')
    .selectAll()
    .where('id', 'in', submissionIds)
    .execute()
  const rows = await tx
    .selectFrom('submitters')
    .select([
      'id',
      'submission_id',
      'email',
      'external_id',
      'status',
      'signed_at',
      'reminders_sent',
      'next_reminder_at',
      'grouped',
    ])
    .where('submission_id', 'in', submissionIds)
    .orderBy('submission_id')
    .orderBy('position')
    .execute()
  const members = await membersOfSnapshot(
    tx,
    rows.filter((s) => s.grouped === 1).map((s) => s.id),
  )
  const byId = new Map(submissions.map((row) => [row.id, row]))
  return submissionIds.map((id) => {
    const submission = byId.get(id)
    if (!submission) throw new Error(`snapshotSubmissions: no submission ${id}`)
    const submitters = rows
      .filter((s) => s.submission_id === id)
      .map(({ grouped, submission_id: _, ...s }) => {
        // '' is a signer group's address until a member acts, and a purged signer's for good.
        const signer = { ...s, email: s.email || null }
        if (grouped !== 1) return signer
        return {
          ...signer,
          members: members.filter((m) => m.submitter_id === s.id).map(({ submitter_id: _, ...m }) => m),
        }
      })
    return {
      id: submission.id,
      status: submission.status,
      template_id: submission.template_id,
      bulk_send_id: submission.bulk_send_id,
      metadata: JSON.parse(submission.metadata) as Record<string, unknown>,
      reminders: reminderPolicyOf(submission),
      submitters,
      audit_log_url: auditLogUrl(publicUrl, submission.id),
      completed_at: submission.completed_at,
      purged_at: submission.purged_at,
    }
  })
}

/** The members of the grouped submitters of a snapshot, in order; nothing read when there is none. */
async function membersOfSnapshot(tx: Tx, submitterIds: string[]) {
  if (submitterIds.length === 0) return []
  return tx
    .selectFrom('group_members')
    .select(['id', 'submitter_id', 'email', 'name', 'status', 'signed_at'])
    .where('submitter_id', 'in', submitterIds)
    .orderBy('submitter_id')
    .orderBy('position')
    .execute()
}
