// POST /console/api/submitters/{id}/resend — mails a signer the signing request again, the very mail
// the first one was (submissions/signing-requests.ts, with the bcc_email notice when the submission
// has one), queued in the transaction that records the resend. Only a request that went out can be
// resent (resend-signing-request-rules.ts), at most once in 5 minutes and 5 times in 24 hours per
// signer, counted in the database so every API process sees the same counts. Nothing changes
// status and no event is journaled (a reminder, docs/api.md#reminders, is): the rows of
// signing_request_resends say which member asked again and when.
import { orNotFound } from '../../errors.ts'
import { IdParams } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { toIso } from '../../lib/clock.ts'
import { queueSigningRequests, recipientsOf } from '../../submissions/signing-requests.ts'
import { lockSubmitterInScope } from '../../submissions/submission-store.ts'
import { consoleScope } from '../access/console-auth.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { SigningRequestResent } from './resend-schemas.ts'
import { RESEND_DAY_MS, resendLimit, resendRefusal } from './resend-signing-request-rules.ts'
import { recordResend, resendTimes } from './resend-signing-request-store.ts'

export const resendSigningRequest = defineRoute({
  operationId: 'resendSigningRequest',
  method: 'POST',
  url: '/console/api/submitters/:id/resend',
  summary: "Mail a signer the signing request again (the session's environment)",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { params: IdParams('sbm'), response: { 202: SigningRequestResent } },
  errors: [
    'resource_not_found',
    'submitter_already_finalized',
    'submission_already_finalized',
    'submitter_not_yet_requested',
    'rate_limit_exceeded',
  ],
  handler: ({ params, scope: caller }, deps) => {
    const scope = consoleScope(caller)
    return deps.db.transaction().execute(async (tx) => {
      // Locked as a signer's act locks it: a resend and a signature at once are taken in turn, and
      // two resends at once are counted one after the other.
      const locked = orNotFound(await lockSubmitterInScope(tx, scope, params.id), `submitter ${params.id}`)
      const { submission, everyone, submitter } = locked
      const now = deps.clock.now()
      const refusal = resendRefusal(submitter, submission, everyone, now)
      if (refusal) throw refusal
      const since = toIso(new Date(now.getTime() - RESEND_DAY_MS))
      const limited = resendLimit(await resendTimes(tx, scope, submitter.id, since), now)
      if (limited) throw limited
      const at = toIso(now)
      await recordResend(tx, scope, { submitterId: submitter.id, submissionId: submission.id, at })
      await queueSigningRequests(tx, deps, submission, [submitter])
      // docs/api.md#signer-groups: a group's request goes to each member still pending.
      const to = submitter.grouped === 1 ? await recipientsOf(tx, [submitter]) : [submitter]
      return {
        object: 'signing_request',
        submitter_id: submitter.id,
        submission_id: submission.id,
        email: to.map((s) => s.email).join(', '),
        queued_at: at,
      } as const
    })
  },
})
