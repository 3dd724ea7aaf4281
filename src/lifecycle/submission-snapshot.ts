// The submission as events and webhooks carry it (`data.object` in docs/webhooks.md#the-body), read
// inside the transaction of the change so it shows the state the event describes. Its schema is the
// one the OpenAPI `webhooks` section publishes (docs/webhooks.md#in-the-openapi-description), and its
// type comes from it: what snapshotSubmissions builds is what the description says.
import { type Static, Type } from 'typebox'
import type { SubmissionsTable, Tx } from '../db/tables.ts'
import { Id, Metadata, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { SUBMISSION_STATUSES } from './submission-moves.ts'
import { MEMBER_STATUSES, SUBMITTER_STATUSES } from './submitter-moves.ts'

/** docs/privacy.md#purge: a delivery waiting when its submission is purged is sent scrubbed. */
const SCRUBBED = 'null in a delivery scrubbed by a purge (docs/privacy.md#purge)'

/** A member of a signer group as events and webhooks carry them: who, and where they stand. */
export const SnapshotMember = Type.Object(
  {
    id: Id('grm'),
    email: Nullable(Type.String({ description: `As written, lower-cased; ${SCRUBBED}` })),
    name: Nullable(Type.String()),
    status: StringEnum(MEMBER_STATUSES),
    signed_at: Nullable(Timestamp),
  },
  { title: 'SnapshotMember' },
)
export type SnapshotMember = Static<typeof SnapshotMember>

/** A signer as events and webhooks carry them. */
export const SnapshotSubmitter = Type.Object(
  {
    id: Id('sbm'),
    email: Nullable(
      Type.String({
        description: `A signer group's is null until a member signs or declines (docs/api.md#signer-groups), a purged signer's for good`,
      }),
    ),
    external_id: Nullable(Type.String()),
    status: StringEnum(SUBMITTER_STATUSES),
    signed_at: Nullable(Timestamp),
    reminders_sent: Type.Integer({
      minimum: 0,
      description: 'Reminders mailed to this signer, automatic and manual (docs/api.md#reminders)',
    }),
    next_reminder_at: Nullable({ ...Timestamp, description: 'When the next automatic reminder is due' }),
    members: Type.Optional(
      Type.Array(SnapshotMember, { description: 'Only on a signer group: its people, without their links' }),
    ),
  },
  { title: 'SnapshotSubmitter' },
)
export type SnapshotSubmitter = Static<typeof SnapshotSubmitter>

/** `data.object` of the submission events and of `submitter.reminded` (docs/webhooks.md#the-body). */
export const SubmissionSnapshot = Type.Object(
  {
    id: Id('sub'),
    status: StringEnum(SUBMISSION_STATUSES, { description: 'The status the event left it in' }),
    template_id: Id('tpl'),
    bulk_send_id: Nullable(Id('bulk', 'The bulk send that made it (docs/api.md#bulk-send), or null')),
    metadata: Nullable(Metadata),
    reminders: Nullable(
      Type.Object(
        {
          first_after_hours: Type.Integer(),
          every_hours: Type.Integer(),
          max_count: Type.Integer(),
        },
        { description: 'The effective reminder policy (docs/api.md#reminders); null when off' },
      ),
    ),
    submitters: Type.Array(SnapshotSubmitter),
    audit_log_url: Nullable(Type.String({ description: `The audit log PDF; ${SCRUBBED}` })),
    completed_at: Nullable(Timestamp),
    purged_at: Nullable({
      ...Timestamp,
      description: 'Set once purged (docs/privacy.md#purge); the personal values are null from then on',
    }),
  },
  { title: 'SubmissionSnapshot' },
)
export type SubmissionSnapshot = Static<typeof SubmissionSnapshot>

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
      metadata: JSON.parse(submission.metadata) as SubmissionSnapshot['metadata'],
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
