// Response shapes of submissions and submitters (docs/api.md#reading-a-submission-or-a-submitter)
// and the mapping from rows.
import { type Static, Type } from 'typebox'
import type { SubmissionsTable } from '../db/tables.ts'
import { Id, Metadata, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { SUBMISSION_STATUSES } from '../lifecycle/submission-moves.ts'
import { auditLogUrl, reminderPolicyOf } from '../lifecycle/submission-snapshot.ts'
import { SUBMITTER_STATUSES } from '../lifecycle/submitter-moves.ts'
import { ReminderPolicy } from './creation-schemas.ts'
import { GroupMember } from './signer-groups.ts'
import { signingUrl } from './signing-credentials.ts'
import type { SubmitterSummaryRow } from './submission-store.ts'

/** Metadata as given; null once the submission is purged (docs/privacy.md#purge). */
const PurgedMetadata = Nullable(Metadata)

export const SubmitterSummary = Type.Object(
  {
    id: Id('sbm'),
    object: Type.Literal('submitter'),
    submission_id: Id('sub'),
    role: Type.String(),
    email: Nullable(
      Type.String({
        description:
          'The signer’s address; for a signer group (docs/api.md#signer-groups), null until a member signs or declines, then theirs',
      }),
    ),
    name: Nullable(
      Type.String({ description: 'For a signer group: null until a member signs or declines, then theirs' }),
    ),
    phone: Nullable(Type.String()),
    external_id: Nullable(Type.String()),
    metadata: PurgedMetadata,
    status: StringEnum(SUBMITTER_STATUSES),
    send_email: Type.Boolean(),
    require_email_2fa: Type.Boolean(),
    signing_url: Nullable(
      Type.String({ description: 'Null for a signer group: each member has a link of their own' }),
    ),
    members: Type.Optional(
      Type.Array(GroupMember, {
        description:
          'Only on a signer group (docs/api.md#signer-groups): its people in order, each with their own links and status',
      }),
    ),
    opened_at: Nullable(Timestamp),
    signed_at: Nullable(Timestamp),
    declined_at: Nullable(Timestamp),
    decline_reason: Nullable(Type.String({ description: 'What the signer wrote when declining' })),
    reminders_sent: Type.Integer({
      minimum: 0,
      description: 'Reminders mailed to this signer, automatic and manual (docs/api.md#reminders)',
    }),
    next_reminder_at: Nullable({
      ...Timestamp,
      description:
        'When the next automatic reminder is due; null when none is (policy off, not their turn yet, signed, declined, max_count reached, the submission ended)',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Submitter' },
)
export type SubmitterSummary = Static<typeof SubmitterSummary>

/** GET /v1/submitters/{id} adds the values filled so far (docs/api.md#reading-a-submission-or-a-submitter). */
export const SubmitterWithValues = Type.Object(
  {
    ...SubmitterSummary.properties,
    values: Nullable(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        description:
          'Field name → value: prefilled at creation or signed; null once the submission is purged',
      }),
    ),
  },
  { title: 'SubmitterWithValues' },
)
export type SubmitterWithValues = Static<typeof SubmitterWithValues>

export const Submission = Type.Object(
  {
    id: Id('sub'),
    object: Type.Literal('submission'),
    status: StringEnum(SUBMISSION_STATUSES),
    template_id: Id('tpl'),
    bulk_send_id: Nullable(
      Id('bulk', 'The bulk send that made it (docs/api.md#bulk-send); null for a submission made alone'),
    ),
    submitters: Type.Array(SubmitterSummary),
    send_email: Type.Boolean(),
    signing_order: StringEnum(['preserved', 'random'] as const),
    expires_at: Nullable(Timestamp),
    redirect_url: Nullable(Type.String()),
    bcc_email: Nullable(Type.String()),
    reply_to: Nullable(Type.String()),
    message: Type.Object({ subject: Nullable(Type.String()), body: Nullable(Type.String()) }),
    metadata: PurgedMetadata,
    // Untitled: the titled ReminderPolicy is the request's, which null does not fit.
    reminders: Nullable(
      Type.Object(ReminderPolicy.properties, {
        additionalProperties: false,
        description:
          'The effective reminder policy (docs/api.md#reminders): the one given at creation, or the instance default; null when off',
      }),
    ),
    audit_log_url: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Type.Optional(Timestamp),
    cancelled_at: Nullable(Timestamp),
    declined_at: Nullable(Timestamp),
    finalization_error: Nullable(
      Type.String({
        description:
          'Why the final PDF could not be made yet, once every signer has signed; it is retried. Null otherwise',
      }),
    ),
    purged_at: Nullable({
      ...Timestamp,
      description:
        'When its documents and personal data were deleted (docs/privacy.md#purge): the personal values are null from then on; null while kept',
    }),
  },
  { title: 'Submission' },
)
export type Submission = Static<typeof Submission>

/** A submitter as answered; `members`: a signer group's, as apiMembersOf answers them. */
export function toApiSubmitter(
  row: SubmitterSummaryRow,
  signingBase: string,
  members?: GroupMember[],
): SubmitterSummary {
  const grouped = row.grouped === 1
  return {
    id: row.id,
    object: 'submitter',
    submission_id: row.submission_id,
    role: row.role,
    // A group's own address is '' until a member signs or declines (docs/api.md#signer-groups);
    // a purged signer's is '' for good (docs/privacy.md#purge).
    email: row.email === '' ? null : row.email,
    name: row.name,
    phone: row.phone,
    external_id: row.external_id,
    metadata: JSON.parse(row.metadata),
    status: row.status,
    send_email: row.send_email === 1,
    require_email_2fa: row.require_email_2fa === 1,
    signing_url: grouped ? null : signingUrl(signingBase, row.signing_slug),
    ...(grouped ? { members: members ?? [] } : {}),
    opened_at: row.opened_at,
    signed_at: row.signed_at,
    declined_at: row.declined_at,
    decline_reason: row.decline_reason,
    reminders_sent: row.reminders_sent,
    next_reminder_at: row.next_reminder_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function toApiSubmission(
  row: SubmissionsTable,
  submitters: SubmitterSummaryRow[],
  urls: { publicUrl: string; signingUrl: string },
  members: ReadonlyMap<string, GroupMember[]> = new Map(),
): Submission {
  return {
    id: row.id,
    object: 'submission',
    status: row.status,
    template_id: row.template_id,
    bulk_send_id: row.bulk_send_id,
    submitters: submitters.map((s) => toApiSubmitter(s, urls.signingUrl, members.get(s.id))),
    send_email: row.send_email === 1,
    signing_order: row.signing_order,
    expires_at: row.expires_at,
    redirect_url: row.redirect_url,
    bcc_email: row.bcc_email,
    reply_to: row.reply_to,
    message: { subject: row.message_subject, body: row.message_body },
    metadata: JSON.parse(row.metadata),
    reminders: reminderPolicyOf(row),
    audit_log_url: auditLogUrl(urls.publicUrl, row.id),
    created_at: row.created_at,
    updated_at: row.updated_at,
    // docs/api.md#reading-a-submission-or-a-submitter: completed_at is present on completed
    // submissions.
    ...(row.completed_at ? { completed_at: row.completed_at } : {}),
    cancelled_at: row.cancelled_at,
    declined_at: row.declined_at,
    finalization_error: row.status === 'completed' ? null : row.finalize_error,
    purged_at: row.purged_at,
  }
}

export { SUBMISSION_STATUSES, SUBMITTER_STATUSES }
