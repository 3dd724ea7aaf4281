// POST /s/{slug}/email_2fa/send and POST /embed/{jwt}/email_2fa/send — operations.md §3: a new
// 6-digit code for a signer asked for one (api-v1 §2.3 `require_email_2fa`), valid 10 minutes,
// stored only as its HMAC, and mailed through the outbox in the same transaction — whatever the
// signer's `send_email`, since the code exists only to be mailed. A new code replaces the previous
// one; asking again within 30 s is 429 `code_resend_too_soon` with `Retry-After`.
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { Timestamp } from '../http/common-schemas.ts'
import { enqueueJob } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { MAIL_JOB, type MailMessage } from '../mail/mail-job.ts'
import { EMAIL_CODE, emailCodeMessage, hashEmailCode, newEmailCode, resendWaitMs } from './email-code.ts'
import { findEmailCode, saveEmailCode } from './email-code-store.ts'
import { defineSignerRoutes } from './signer-routes.ts'
import { openSession, refusalOf } from './signing-session.ts'

const EmailCodeSent = Type.Object(
  {
    object: Type.Literal('email_2fa_code'),
    sent_to: Type.String({ description: 'The address the code was mailed to: the signer’s own' }),
    expires_at: { ...Timestamp, description: 'The code works until then (10 minutes), once' },
    resend_at: { ...Timestamp, description: 'From then on (30 s) another code may be asked for' },
  },
  { title: 'EmailCodeSent' },
)

export const notRequired = () =>
  new ApiError('email_2fa_not_required', 'This signer is not asked for an e-mail code.')

export const [sendEmailCode, sendEmbedEmailCode] = defineSignerRoutes({
  operationIds: ['sendEmailCode', 'sendEmbedEmailCode'],
  method: 'POST',
  action: 'email_2fa/send',
  summary: 'Mail a one-time code to the signer',
  description:
    'For a signer created with `require_email_2fa: true`: mails a new 6-digit code, valid 10 minutes and once, replacing any earlier one (its wrong tries start afresh). Again within 30 s: 429 `code_resend_too_soon` with `Retry-After`. Possible before the signer’s turn; not once they finished (409) or the submission ended (410).',
  response: EmailCodeSent,
  errors: [
    'email_2fa_not_required',
    'code_resend_too_soon',
    'submitter_already_finalized',
    'submission_not_active',
  ],
  handler: async (_input, signer, deps) => {
    if (signer.submitter.require_email_2fa !== 1) throw notRequired()
    return deps.db.transaction().execute(async (tx) => {
      const session = await openSession(tx, deps, signer)
      const refusal = refusalOf(session, 'email_code')
      if (refusal) throw refusal
      const { submitter, submission } = session
      const now = deps.clock.now()
      const wait = resendWaitMs(await findEmailCode(tx, submitter), now)
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000)
        throw new ApiError(
          'code_resend_too_soon',
          `A code was sent less than 30 seconds ago; ask again in ${seconds} s.`,
          { 'retry-after': String(seconds) },
        )
      }
      const code = newEmailCode()
      const expiresAt = new Date(now.getTime() + EMAIL_CODE.ttlMs)
      await saveEmailCode(tx, {
        submitter_id: submitter.id,
        account_id: submitter.account_id,
        environment: submitter.environment,
        code_hash: hashEmailCode(deps.keys.emailCode, submitter.id, code),
        sent_to: submitter.email,
        sent_at: toIso(now),
        expires_at: toIso(expiresAt),
        wrong_tries: 0,
        used_at: null,
      })
      const message: MailMessage = {
        to: submitter.email,
        bcc: null,
        reply_to: null,
        ...emailCodeMessage(submitter, submission, code, expiresAt),
        submission_id: submission.id,
        submitter_id: submitter.id,
      }
      await enqueueJob(tx, deps, { kind: MAIL_JOB, payload: message, maxAttempts: 5 })
      return {
        object: 'email_2fa_code' as const,
        sent_to: submitter.email,
        expires_at: toIso(expiresAt),
        resend_at: toIso(new Date(now.getTime() + EMAIL_CODE.resendAfterMs)),
      }
    })
  },
})
