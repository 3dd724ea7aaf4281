// The only code that changes a submitter's status: the row (guarded by the status it was read with),
// what the act leaves for the audit trail (when, address, user agent, link), and its journal event,
// in the caller's transaction.
import type { SubmittersTable, Tx } from '../db/tables.ts'
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
}

/** What the act records beyond its time and context. */
export type ActDetails = { values?: string; declineReason?: string; language?: string }

/** The signing page's language, when the page sent it: the audit trail quotes the consent in it. */
function languageColumn(details: ActDetails) {
  return details.language === undefined ? {} : { page_language: details.language }
}

function actColumns(trigger: SubmitterTrigger, at: string, act: SignerAct, details: ActDetails) {
  switch (trigger) {
    case 'open':
      return { opened_at: at, opened_ip: act.ip, opened_user_agent: act.userAgent, opened_via: act.via }
    // docs/api.md#reminders: signing or declining stops the signer's reminders for good.
    case 'sign':
      return {
        next_reminder_at: null,
        signed_at: at,
        signed_ip: act.ip,
        signed_user_agent: act.userAgent,
        ...(details.values === undefined ? {} : { values: details.values }),
        ...languageColumn(details),
      }
    case 'decline':
      return {
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
        data: { submitter_id: submitter.id, via: act.via, at },
        actor: act,
      },
    )
  }
  return updated
}
