// POST /v1/submitters/{id}/remind — docs/api.md#reminders: mails the signer a reminder now (the
// signing request again, subject "Reminder: …", the same link). Only a signer still to sign
// (else 409 submitter_already_finalized), of a submission that has not ended (409
// submission_already_finalized, also past `expires_at`), whose turn it is (409 not_your_turn) and
// who is sent e-mail (409 submitter_not_yet_requested); at most one reminder an hour per signer,
// an automatic one counting too (429 reminder_too_soon with Retry-After; the hour is the policy's,
// REMINDER_HOUR_SECONDS). It counts in `reminders_sent`, journals `submitter.reminded` with
// `manual: true`, and leaves the automatic schedule as it was. No body, no Idempotency-Key: the
// hourly limit already keeps a repeated call from mailing twice.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { policyHourMs, remindRefusal, remindTooSoon } from '../submissions/reminder-schedule.ts'
import { recordReminder } from '../submissions/reminders.ts'
import { SubmitterWithValues } from '../submissions/submission-schemas.ts'
import { lockSubmitterInScope } from '../submissions/submission-store.ts'
import { submitterWithValues } from './get-submitter.ts'

export const remindSubmitter = defineRoute({
  operationId: 'remindSubmitter',
  method: 'POST',
  url: '/v1/submitters/:id/remind',
  summary: 'Send a signer a reminder now',
  description:
    'Mails the signing request again, its subject beginning "Reminder:", with the same link. Only a signer still to sign (409 `submitter_already_finalized`) whose turn it is (409 `not_your_turn`), of a submission that has not ended (409 `submission_already_finalized`), and who is sent e-mail (409 `submitter_not_yet_requested`). At most one reminder per signer an hour, automatic ones included: else 429 `reminder_too_soon` with `Retry-After` in seconds. Counts in `reminders_sent`, is journaled as `submitter.reminded` (`manual: true`) and does not move `next_reminder_at`. No body, no Idempotency-Key. Answers the submitter as `GET /v1/submitters/{id}` does.',
  tag: 'Submitters',
  schema: { params: IdParams('sbm'), response: { 200: SubmitterWithValues } },
  errors: [
    'resource_not_found',
    'submitter_already_finalized',
    'submission_already_finalized',
    'not_your_turn',
    'submitter_not_yet_requested',
    'reminder_too_soon',
  ],
  handler: async ({ params, scope }, deps) => {
    const reminded = await deps.db.transaction().execute(async (tx) => {
      // Locked as a signer's act locks it: a reminder and a signature at once are taken in turn,
      // and two reminders at once are counted one after the other.
      const locked = orNotFound(await lockSubmitterInScope(tx, scope, params.id), `submitter ${params.id}`)
      const { submission, everyone, submitter } = locked
      const now = deps.clock.now()
      const refusal = remindRefusal(submitter, submission, everyone, now)
      if (refusal) throw refusal
      const tooSoon = remindTooSoon(submitter.last_reminded_at, now, policyHourMs(deps.config))
      if (tooSoon) throw tooSoon
      return recordReminder(tx, deps, submission, submitter, { manual: true })
    })
    return submitterWithValues(deps, reminded)
  },
})
