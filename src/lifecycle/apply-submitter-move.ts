// The only code that changes a submitter's status: the row (guarded by the status it was read with),
// what the act leaves for the audit trail (when, address, user agent, link), and its journal event,
// in the caller's transaction. For a signer group (docs/api.md#signer-groups) the guarded UPDATE of
// the group's row is what decides which member signs for the role: the first to commit moves it,
// any other finds it moved and is refused; the members' statuses follow in the same transaction.
import type { GroupMemberStatus, GroupMembersTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { ApiError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { toIso } from '../lib/clock.ts'
import { recordSignatures } from '../usage/signature-ledger.ts'
import type { LifecycleContext } from './apply-submission-move.ts'
import { type SubmitterTrigger, submitterMoveFrom } from './submitter-moves.ts'

/** One act of a signer: the request it came with. */
export interface SignerAct {
  ip: string
  userAgent: string | null
  /** The credential used: the signing URL's slug (`link`) or the embed token (`embed`). */
  via: 'link' | 'embed'
  /** The member of a signer group who acts for it (docs/api.md#signer-groups); absent otherwise. */
  member?: GroupMembersTable | null
}

/** What the act records beyond its time and context. */
export type ActDetails = { values?: string; declineReason?: string; language?: string }

/** The signing page's language, when the page sent it: the audit trail quotes the consent in it. */
function languageColumn(details: ActDetails) {
  return details.language === undefined ? {} : { page_language: details.language }
}

/**
 * docs/api.md#signer-groups: the member who signs (or declines) for the group becomes its `email`
 * and `name`, with the e-mail code they verified.
 */
function memberColumns(member: GroupMembersTable | null | undefined) {
  if (!member) return {}
  return {
    email: member.email,
    email_key: member.email_key,
    name: member.name,
    email_2fa_verified_at: member.email_2fa_verified_at,
  }
}

function actColumns(trigger: SubmitterTrigger, at: string, act: SignerAct, details: ActDetails) {
  switch (trigger) {
    case 'open':
      return { opened_at: at, opened_ip: act.ip, opened_user_agent: act.userAgent, opened_via: act.via }
    // docs/api.md#reminders: signing or declining stops the signer's reminders for good.
    case 'sign':
      return {
        ...memberColumns(act.member),
        next_reminder_at: null,
        signed_at: at,
        signed_ip: act.ip,
        signed_user_agent: act.userAgent,
        ...(details.values === undefined ? {} : { values: details.values }),
        ...languageColumn(details),
      }
    case 'decline':
      return {
        ...memberColumns(act.member),
        next_reminder_at: null,
        declined_at: at,
        declined_ip: act.ip,
        declined_user_agent: act.userAgent,
        decline_reason: details.declineReason ?? null,
        ...languageColumn(details),
      }
  }
}

async function isPreview(tx: Tx, submitter: Pick<SubmittersTable, 'submission_id' | 'account_id'>) {
  const row = await tx
    .selectFrom('submissions')
    .select('preview')
    .where('id', '=', submitter.submission_id)
    .where('account_id', '=', submitter.account_id)
    .executeTakeFirst()
  return row?.preview === 1
}

export async function applySubmitterMove(
  tx: Tx,
  ctx: LifecycleContext,
  submitter: SubmittersTable,
  trigger: SubmitterTrigger,
  act: SignerAct,
  refusal: () => ApiError,
  details: ActDetails = {},
): Promise<SubmittersTable> {
  const move = submitterMoveFrom(submitter.status, trigger)
  if (!move) throw refusal()
  const at = toIso(ctx.clock.now())
  const updated = await tx
    .updateTable('submitters')
    .set({ status: move.to, updated_at: at, ...actColumns(trigger, at, act, details) })
    .where('id', '=', submitter.id)
    .where('status', '=', submitter.status)
    .returningAll()
    .executeTakeFirst()
  if (!updated) throw refusal()
  if (act.member && (move.to === 'signed' || move.to === 'declined')) {
    if (!(await settleGroup(tx, updated, act.member, move.to, at))) throw refusal()
  }
  // docs/usage.md#what-counts: the signature is counted by this move, in its transaction, once per
  // submitter — but for the console editor's preview, a test copy that binds nobody
  // (docs/console.md#preview-as-a-signer).
  if (move.to === 'signed' && !(await isPreview(tx, updated)))
    await recordSignatures(tx, [updated], 'signed', at)
  if (move.event) {
    await appendEvent(
      tx,
      ctx,
      { accountId: submitter.account_id, environment: submitter.environment },
      {
        type: move.event,
        submissionId: submitter.submission_id,
        submitterId: submitter.id,
        data: { submitter_id: submitter.id, ...memberOf(act.member), via: act.via, at },
        actor: act,
      },
    )
  }
  return updated
}

/** Who of a group acted, in the journal event (the audit trail names them). */
function memberOf(member: GroupMembersTable | null | undefined) {
  return member ? { member: actingMember(member) } : {}
}

/** A group member as the journal names them (docs/api.md#signer-groups). */
export function actingMember(member: GroupMembersTable) {
  return { id: member.id, email: member.email, name: member.name }
}

/**
 * The members once the group signed or declined: the member who signed `signed` and the others
 * `superseded` (their links end), or the member who declined `declined` (the submission ends with
 * it). False when the acting member was no longer pending (removed or changed meanwhile).
 */
async function settleGroup(
  tx: Tx,
  group: SubmittersTable,
  member: GroupMembersTable,
  to: 'signed' | 'declined',
  at: string,
): Promise<boolean> {
  const scoped = tx
    .updateTable('group_members')
    .where('submitter_id', '=', group.id)
    .where('account_id', '=', group.account_id)
    .where('environment', '=', group.environment)
    .where('status', '=', 'pending')
  if (to === 'declined') {
    const declined = await scoped
      .set({ status: 'declined', updated_at: at })
      .where('id', '=', member.id)
      .executeTakeFirst()
    return Number(declined.numUpdatedRows) === 1
  }
  const moved = await scoped
    .set((eb) => ({
      status: eb
        .case()
        .when('id', '=', member.id)
        .then('signed')
        .else('superseded')
        .end()
        .$castTo<GroupMemberStatus>(),
      signed_at: eb.case().when('id', '=', member.id).then(at).else(null).end().$castTo<string | null>(),
      updated_at: at,
    }))
    .returning(['id', 'status'])
    .execute()
  return moved.some((m) => m.id === member.id && m.status === 'signed')
}
