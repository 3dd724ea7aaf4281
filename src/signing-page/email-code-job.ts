// The job that mails a signer's e-mail code (`email_2fa/send` in docs/api.md#e-mail-code-2fa). The
// code is never stored in clear, the outbox included, so this job carries everything of the mail
// but the code: the code is derived from the job's id when the job runs (email-code.ts), checked
// against the HMAC the send stored, and the mail rendered then. A code that was replaced, used,
// voided or has expired by the time the job runs (a mail server away for 10 minutes) is not sent:
// it could only mislead. Every attempt sends the same code, so a retry after a failed send still
// works.
import { type Static, Type } from 'typebox'
import type { Deps } from '../deps.ts'
import { Environment } from '../http/common-schemas.ts'
import { defineJob } from '../jobs/define-job.ts'
import { deliverMail, type MailMessage, mailMessageId } from '../mail/mail-job.ts'
import { renderEmailCodeMail } from '../mail/messages/email-code.ts'
import { deriveEmailCode, EMAIL_CODE, hashEmailCode } from './email-code.ts'
import { findEmailCode } from './email-code-store.ts'

/**
 * Seconds between attempts: a code lapses 10 minutes after it was asked for, so the attempts all
 * fall within them (10 + 30 + 60 + 120 + 240 = 460 s).
 */
export const EMAIL_CODE_RETRY_SCHEDULE = [10, 30, 60, 120, 240]

/** What the job keeps: the mail's words and where it goes, never the code. */
export const EmailCodeJobPayload = Type.Object({
  kind: Type.Literal('email_code'),
  to: Type.String(),
  to_name: Type.Union([Type.String(), Type.Null()]),
  language: Type.String(),
  document_name: Type.String(),
  sender_name: Type.String(),
  submission_id: Type.String(),
  submitter_id: Type.String(),
  /** docs/api.md#signer-groups: the group member the code is for; absent for a signer who is no group. */
  member_id: Type.Optional(Type.String()),
  account_id: Type.String(),
  environment: Environment,
})
export type EmailCodeJobPayload = Static<typeof EmailCodeJobPayload>

/** The code of this job when it is still the signer's live one (not replaced, used, void or expired). */
async function liveCode(deps: Deps, payload: EmailCodeJobPayload, jobId: string): Promise<string | null> {
  const owner = { id: payload.submitter_id, account_id: payload.account_id, environment: payload.environment }
  const row = await findEmailCode(deps.db, owner, payload.member_id ?? '')
  const code = deriveEmailCode(deps.keys.emailCodeSeed, payload.submitter_id, jobId)
  if (!row || row.code_hash !== hashEmailCode(deps.keys.emailCode, payload.submitter_id, code)) return null
  if (row.used_at !== null || row.wrong_tries >= EMAIL_CODE.maxWrongTries || row.sent_to !== payload.to)
    return null
  return new Date(row.expires_at).getTime() > deps.clock.now().getTime() ? code : null
}

export const emailCodeJob = defineJob({
  kind: 'mail.email_code',
  payload: EmailCodeJobPayload,
  retrySchedule: EMAIL_CODE_RETRY_SCHEDULE,
  // As a mail.send job's (mail-job.ts): the send gives up after 45 s, within the 60 s lease.
  timeoutMs: 60_000,
  handle: async (payload, job, deps: Deps) => {
    const code = await liveCode(deps, payload, job.id)
    if (code === null) {
      deps.logger.info(
        { job_id: job.id, submitter_id: payload.submitter_id },
        'e-mail code not sent: it was replaced, used or voided, or has expired',
      )
      return
    }
    const rendered = renderEmailCodeMail({
      language: payload.language,
      documentName: payload.document_name,
      senderName: payload.sender_name,
      signerName: payload.to_name,
      code,
    })
    const message: MailMessage = {
      kind: payload.kind,
      to: payload.to,
      to_name: payload.to_name,
      bcc: null,
      reply_to: null,
      ...rendered,
      submission_id: payload.submission_id,
      submitter_id: payload.submitter_id,
    }
    await deliverMail(deps, message, mailMessageId(job.id, deps.config.mailFrom), job.id)
  },
})
