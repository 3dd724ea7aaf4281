// docs/api.md#reminders: the signing request mailed again to a signer who has not signed. A
// signer's clock starts when they can act (startReminderClocks: at creation, or when their turn
// comes under preserved order); each automatic reminder is one `submitter.remind` job queued with
// `runAt` at its due time — never a sweep — keyed on its number: the job re-reads the signer and the
// submission under the submission's lock and sends only if the signer is still to sign, still due
// that very reminder, and the submission still open, so a second run of the job (at-least-once)
// and a signature a second earlier both send nothing. Each reminder, automatic or manual (the
// remind route), is one transaction: the mail queued (the durable mail path), the counters, the
// journal event `submitter.reminded` with its webhook outbox row, and the next job.
import { Type } from 'typebox'
import type { SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { defineJob } from '../jobs/define-job.ts'
import { enqueue } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { recordSubmissionEvent } from '../lifecycle/apply-submission-move.ts'
import { enqueueMail } from '../mail/mail-job.ts'
import { firstReminderAt, nextReminderAt, policyHourMs, remindRefusal } from './reminder-schedule.ts'
import {
  accountNameOf,
  documentNameOf,
  nextSigners,
  recipientsOf,
  signingRequestMessage,
} from './signing-requests.ts'
import { lockSubmissionOfSubmitter, submittersOf } from './submission-store.ts'

/** Reminder number `number` of one signer, due at its `runAt`. */
export const reminderJob = defineJob({
  kind: 'submitter.remind',
  payload: Type.Object({ submitter_id: Type.String(), number: Type.Integer({ minimum: 1 }) }),
  retrySchedule: [10, 60, 300, 1800],
  handle: async (payload, _job, deps: Deps) => {
    await sendDueReminder(deps, payload.submitter_id, payload.number)
  },
})

/**
 * Starts the clock of each signer who can act now and has none yet: the first reminder's due time
 * on the row and its job, in the caller's transaction. Signers not sent e-mail get no reminder; a
 * preview sends nothing.
 */
export async function startReminderClocks(
  tx: Tx,
  deps: Deps,
  submission: SubmissionsTable,
  everyone: SubmittersTable[],
): Promise<void> {
  if (submission.preview === 1) return
  const now = deps.clock.now()
  const due = firstReminderAt(submission, now, policyHourMs(deps.config))
  if (!due) return
  const starting = nextSigners(submission.signing_order, everyone).filter(
    (s) => s.send_email === 1 && s.next_reminder_at === null && s.auto_reminders_sent === 0,
  )
  for (const signer of starting) {
    await tx
      .updateTable('submitters')
      .set({ next_reminder_at: toIso(due) })
      .where('id', '=', signer.id)
      .where('next_reminder_at', 'is', null)
      .execute()
    await enqueue(tx, deps, reminderJob, { submitter_id: signer.id, number: 1 }, { runAt: due })
  }
}

/** The signer and their submission under its lock, with every signer as they stand. */
async function lockSigner(tx: Tx, found: SubmittersTable) {
  const submission = await lockSubmissionOfSubmitter(tx, found)
  const scope = { accountId: found.account_id, environment: found.environment }
  const everyone = await submittersOf(tx, scope, [submission.id])
  const submitter = everyone.find((s) => s.id === found.id) ?? found
  return { submission, everyone, submitter }
}

/** The job's work: reminder `number` of the signer, if it is still the one due; nothing otherwise. */
export async function sendDueReminder(deps: Deps, submitterId: string, number: number): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const found = await tx
      .selectFrom('submitters')
      .selectAll()
      .where('id', '=', submitterId)
      .executeTakeFirst()
    if (!found) return
    const { submission, everyone, submitter } = await lockSigner(tx, found)
    // Another run of this job sent it already, or the clock stopped: nothing to do.
    if (submitter.auto_reminders_sent !== number - 1 || submitter.next_reminder_at === null) return
    const now = deps.clock.now()
    if (remindRefusal(submitter, submission, everyone, now) || submission.all_signed_at !== null) {
      await tx
        .updateTable('submitters')
        .set({ next_reminder_at: null })
        .where('id', '=', submitter.id)
        .execute()
      return
    }
    await recordReminder(tx, deps, submission, submitter, { manual: false })
  })
}

/**
 * One reminder to `submitter`, who may be reminded (the caller checked, under the lock): the mail,
 * the counts, the event; an automatic one also sets the next due time and queues its job. Returns
 * the signer's row as it now is.
 */
export async function recordReminder(
  tx: Tx,
  deps: Deps,
  submission: SubmissionsTable,
  submitter: SubmittersTable,
  { manual }: { manual: boolean },
): Promise<SubmittersTable> {
  const now = deps.clock.now()
  const context = {
    documentName: await documentNameOf(tx, submission),
    accountName: await accountNameOf(tx, submission),
  }
  // docs/api.md#signer-groups: a group's reminder goes to each member still pending, with their own link.
  for (const recipient of await recipientsOf(tx, [submitter])) {
    await enqueueMail(
      tx,
      deps,
      signingRequestMessage(deps, submission, recipient, context, { reminder: true }),
    )
  }
  const auto = submitter.auto_reminders_sent + (manual ? 0 : 1)
  const next =
    manual || submitter.next_reminder_at === null
      ? null
      : nextReminderAt(submission, auto, new Date(submitter.next_reminder_at), now, policyHourMs(deps.config))
  const updated = await tx
    .updateTable('submitters')
    .set({
      reminders_sent: submitter.reminders_sent + 1,
      auto_reminders_sent: auto,
      last_reminded_at: toIso(now),
      ...(manual ? {} : { next_reminder_at: next ? toIso(next) : null }),
    })
    .where('id', '=', submitter.id)
    .where('reminders_sent', '=', submitter.reminders_sent)
    .returningAll()
    .executeTakeFirst()
  if (!updated)
    throw new ApiError('internal_inconsistency', 'The signer changed while being reminded; retry.')
  await recordSubmissionEvent(tx, deps, submission, 'submitter.reminded', null, {
    submitterId: submitter.id,
    data: { submitter_id: submitter.id, count: updated.reminders_sent, manual },
  })
  if (next)
    await enqueue(tx, deps, reminderJob, { submitter_id: submitter.id, number: auto + 1 }, { runAt: next })
  return updated
}
