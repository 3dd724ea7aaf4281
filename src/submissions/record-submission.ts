// The transactional part of every submission creation (docs/api.md#statuses-and-moves): rows, the
// `submission.created` event, pre-signed submitters, and — when e-mail goes out — the queued
// signing requests with the move to `sent`, all in the caller's transaction.
import type { GroupMembersTable, Scope, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import type { FieldValue } from '../documents/field-values.ts'
import { ApiError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { toIso } from '../lib/clock.ts'
import { storedEmail } from '../lib/email-address.ts'
import {
  applySubmissionMove,
  markAllSigned,
  recordSubmissionEvent,
} from '../lifecycle/apply-submission-move.ts'
import { auditLogUrl } from '../lifecycle/submission-snapshot.ts'
import { recordSignatures } from '../usage/signature-ledger.ts'
import type { CommonOptions, CreatedSubmission } from './creation-schemas.ts'
import { insertGroupMembers } from './group-member-store.ts'
import { policyColumns } from './reminder-schedule.ts'
import { startReminderClocks } from './reminders.ts'
import { apiMembers, type MemberInput, newMemberRows } from './signer-groups.ts'
import { embedExpiry, embedUrl, issueEmbedToken, newSigningSlug, signingUrl } from './signing-credentials.ts'
import { queueSigningRequests } from './signing-requests.ts'
import { insertSubmission, insertSubmitters } from './submission-store.ts'

export interface NewSubmitter {
  role: string
  /** One signer's address, or `members` for a signer group (docs/api.md#signer-groups). */
  email?: string
  members?: MemberInput[]
  name?: string
  phone?: string
  external_id?: string
  metadata?: Record<string, unknown>
  send_email?: boolean
  require_email_2fa?: boolean
  completed?: boolean
  values: Record<string, FieldValue>
}

export interface NewSubmission {
  templateId: string
  options: CommonOptions
  submitters: NewSubmitter[]
  /** The editor's preview as a signer (docs/console.md#preview-as-a-signer): sends nothing. */
  preview?: boolean
  /** A row of a bulk send (docs/api.md#bulk-send): unique together, so a row is made once. */
  bulkSend?: { id: string; row: number }
}

function submitterRows(
  id: string,
  scope: Scope,
  input: NewSubmission,
  deps: Deps,
  at: string,
): SubmittersTable[] {
  const sendDefault = input.options.send_email ?? true
  return input.submitters.map((s, position) => ({
    // A group's own address and name stay empty until a member signs (docs/api.md#signer-groups).
    ...(s.members ? { email: '', email_key: '' } : storedEmail(s.email ?? '')),
    grouped: s.members ? 1 : 0,
    id: deps.ids.next('sbm'),
    account_id: scope.accountId,
    environment: scope.environment,
    submission_id: id,
    position,
    role: s.role,
    name: s.members ? null : (s.name ?? null),
    phone: s.phone ?? null,
    external_id: s.external_id ?? null,
    metadata: JSON.stringify(s.metadata ?? {}),
    status: s.completed ? 'pre_signed' : 'pending',
    send_email: (s.send_email ?? sendDefault) ? 1 : 0,
    require_email_2fa: s.require_email_2fa ? 1 : 0,
    signing_slug: newSigningSlug(),
    values: JSON.stringify(s.values),
    created_at: at,
    updated_at: at,
    opened_at: null,
    signed_at: s.completed ? at : null,
    declined_at: null,
    opened_ip: null,
    opened_user_agent: null,
    opened_via: null,
    signed_ip: null,
    signed_user_agent: null,
    declined_ip: null,
    declined_user_agent: null,
    decline_reason: null,
    email_2fa_verified_at: null,
    page_language: null,
    reminders_sent: 0,
    auto_reminders_sent: 0,
    next_reminder_at: null,
    last_reminded_at: null,
  }))
}

/** A new submission and what it answers: its rows written, then its links and tokens made. */
export async function recordNewSubmission(
  tx: Tx,
  deps: Deps,
  scope: Scope,
  input: NewSubmission,
): Promise<CreatedSubmission> {
  const { id, at, submission, submitters, members } = await insertNewSubmission(tx, deps, scope, input)
  return {
    id,
    status: (
      await tx.selectFrom('submissions').select('status').where('id', '=', id).executeTakeFirstOrThrow()
    ).status,
    submitters: await Promise.all(
      submitters.map((s) =>
        createdSubmitter(
          deps,
          s,
          members.filter((m) => m.submitter_id === s.id),
          submission.expires_at,
        ),
      ),
    ),
    audit_log_url: auditLogUrl(deps.config.publicUrl, id),
    created_at: at,
  }
}

/**
 * Every write of a new submission, in the caller's transaction; no answer is built (a bulk send's
 * row needs none: its links are read later like any submission's).
 */
export async function insertNewSubmission(tx: Tx, deps: Deps, scope: Scope, input: NewSubmission) {
  const now = deps.clock.now()
  const at = toIso(now)
  const id = deps.ids.next('sub')
  const { options } = input
  const submission = {
    id,
    account_id: scope.accountId,
    environment: scope.environment,
    template_id: input.templateId,
    status: 'created' as const,
    send_email: (options.send_email ?? true) ? 1 : 0,
    signing_order: options.signing_order ?? 'preserved',
    expires_at: options.expires_at ? toIso(new Date(options.expires_at)) : null,
    redirect_url: options.redirect_url ?? null,
    bcc_email: options.bcc_email?.normalize('NFC') ?? null,
    reply_to: options.reply_to?.normalize('NFC') ?? null,
    message_subject: options.message?.subject ?? null,
    message_body: options.message?.body ?? null,
    metadata: JSON.stringify(options.metadata ?? {}),
    created_at: at,
    updated_at: at,
    completed_at: null,
    cancelled_at: null,
    declined_at: null,
    all_signed_at: null,
    final_pdf_key: null,
    final_pdf_sha256: null,
    audit_pdf_key: null,
    audit_json_key: null,
    finalize_error: null,
    preview: input.preview ? 1 : 0,
    bulk_send_id: input.bulkSend?.id ?? null,
    bulk_send_row: input.bulkSend?.row ?? null,
    ended_at: null,
    purged_at: null,
    audit_pdf_sha256: null,
    // docs/api.md#reminders: the policy given, or the instance default (REMINDERS).
    ...policyColumns(options.reminders, deps.config.reminders),
  }
  const submitters = submitterRows(id, scope, input, deps, at)
  const members = submitters.flatMap((row, i) => {
    const given = input.submitters[i]!
    return given.members ? newMemberRows(row, given.members, given.name ?? null, deps.ids, at) : []
  })
  await insertSubmission(tx, submission)
  await insertSubmitters(tx, submitters)
  await insertGroupMembers(tx, members)
  // docs/usage.md#what-counts: a pre-signed submitter is a signature, counted with the submission's
  // creation.
  const preSigned = submitters.filter((s) => s.status === 'pre_signed')
  await recordSignatures(tx, preSigned, 'pre_signed', at)
  await recordSubmissionEvent(tx, deps, submission, 'submission.created')
  for (const s of preSigned) {
    // docs/api.md#pre-signed-submitters: a pre-signed submitter is journaled with where the
    // signature came from and when.
    await appendEvent(tx, deps, scope, {
      type: 'submitter.pre_signed',
      submissionId: id,
      submitterId: s.id,
      data: { submitter_id: s.id, source: 'api', signed_at: at, request_id: null },
    })
  }
  if (submitters.every((s) => s.status === 'pre_signed')) {
    // Nobody left to sign: fenced for completion, the final PDF queued in this transaction.
    if (!(await markAllSigned(tx, deps, submission)))
      throw new ApiError(
        'internal_inconsistency',
        'The new submission changed while it was being completed; retry.',
      )
  } else {
    if ((await queueSigningRequests(tx, deps, submission, submitters)) > 0) {
      await applySubmissionMove(
        tx,
        deps,
        submission,
        'send',
        () =>
          new ApiError(
            'internal_inconsistency',
            'The new submission changed while it was being sent; retry.',
          ),
      )
    }
    // The signers who can act now (everyone in random order, the first in preserved order).
    await startReminderClocks(tx, deps, submission, submitters)
  }
  return { id, at, submission, submitters, members }
}

/** A submitter of the creation response: its links, or a group's members with theirs. */
async function createdSubmitter(
  deps: Deps,
  s: SubmittersTable,
  members: GroupMembersTable[],
  expiresAtOfSubmission: string | null,
): Promise<CreatedSubmission['submitters'][number]> {
  if (s.grouped === 1) {
    return {
      id: s.id,
      email: null,
      signing_url: null,
      embed_src: null,
      members: await apiMembers(deps, members, expiresAtOfSubmission),
    }
  }
  const now = deps.clock.now()
  const expiresAt = embedExpiry(now, expiresAtOfSubmission)
  const claims = { sub: s.id, sid: s.submission_id }
  return {
    id: s.id,
    email: s.email,
    signing_url: signingUrl(deps.config.signingUrl, s.signing_slug),
    embed_src: embedUrl(
      deps.config.signingUrl,
      await issueEmbedToken(deps.keys.embed, claims, expiresAt, now),
    ),
  }
}
