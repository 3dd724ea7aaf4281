// POST /s/{slug}/email_2fa/send and POST /embed/{jwt}/email_2fa/send — docs/api.md#e-mail-code-2fa:
// a new 6-digit code for a signer asked for one (`require_email_2fa` in
// docs/api.md#e-mail-code-2fa), valid 10 minutes, stored only as its HMAC, and mailed through the
// outbox in the same transaction — whatever the signer's `send_email`, since the code exists only
// to be mailed. A new code replaces the previous one; asking again within 30 s is 429
// `code_resend_too_soon`, an 11th code within 24 hours 429 `code_send_limit_reached`, both with
// `Retry-After`. The mail job carries no code; the code is derived from the job's id and the mail
// rendered when it is sent (email-code-job.ts), in the language the signer's browser asks for.
import { Type } from 'typebox'
import { findAccount } from '../accounts/account-store.ts'
import type { Email2faCodesTable, Tx } from '../db/tables.ts'
import { ApiError } from '../errors.ts'
import { Timestamp } from '../http/common-schemas.ts'
import { enqueue } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { memberKeyOf } from '../submissions/signer-groups.ts'
import { documentNameOf } from '../submissions/signing-requests.ts'
import {
  deriveEmailCode,
  EMAIL_CODE,
  hashEmailCode,
  recentSends,
  resendWaitMs,
  sendLimitWaitMs,
} from './email-code.ts'
import { type EmailCodeJobPayload, emailCodeJob } from './email-code-job.ts'
import { findEmailCode, saveEmailCode } from './email-code-store.ts'
import { pickLanguage } from './page/texts.ts'
import { openSession, refusalOf, type SigningSession } from './signer-act-lock.ts'
import { defineSignerRoutes } from './signer-routes.ts'

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

/** The daily cap (docs/api.md#e-mail-code-2fa) first, its wait being the longer, then the 30 s. */
function checkSendAllowed(previous: Email2faCodesTable | undefined, sends: string[], now: Date): void {
  const capped = sendLimitWaitMs(sends, now)
  if (capped > 0) {
    const seconds = Math.ceil(capped / 1000)
    throw new ApiError(
      'code_send_limit_reached',
      `${EMAIL_CODE.maxSends} codes were sent to you in the last 24 hours; ask again in ${Math.ceil(seconds / 60)} min.`,
      { 'retry-after': String(seconds) },
    )
  }
  const wait = resendWaitMs(previous, now)
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000)
    throw new ApiError(
      'code_resend_too_soon',
      `A code was sent less than 30 seconds ago; ask again in ${seconds} s.`,
      { 'retry-after': String(seconds) },
    )
  }
}

/** Everything of the mail but the code: who it goes to, in which language, about what, from whom. */
async function codeMailPayload(
  tx: Tx,
  session: SigningSession,
  language: string,
): Promise<EmailCodeJobPayload> {
  const { submitter, submission } = session
  const account = await findAccount(tx, submitter.account_id)
  return {
    kind: 'email_code',
    to: submitter.email,
    to_name: submitter.name,
    language,
    document_name: await documentNameOf(tx, submission),
    sender_name: account?.name ?? 'Paraph',
    submission_id: submission.id,
    submitter_id: submitter.id,
    ...(session.member ? { member_id: session.member.id } : {}),
    account_id: submitter.account_id,
    environment: submitter.environment,
  }
}

export const [sendEmailCode, sendEmbedEmailCode] = defineSignerRoutes({
  operationIds: ['sendEmailCode', 'sendEmbedEmailCode'],
  method: 'POST',
  action: 'email_2fa/send',
  summary: 'Mail a one-time code to the signer',
  description:
    'For a signer created with `require_email_2fa: true`: mails a new 6-digit code, valid 10 minutes and once, replacing any earlier one (its wrong tries start afresh). Again within 30 s: 429 `code_resend_too_soon`; an 11th code within 24 hours: 429 `code_send_limit_reached`; both with `Retry-After`. The mail is in the signing page’s language for `Accept-Language` (English otherwise) and names the document and the account asking for the signature; the code is never stored, the outbox included. Possible before the signer’s turn; not once they finished (409) or the submission ended (410).',
  extraParameters: [
    {
      in: 'header',
      name: 'Accept-Language',
      description:
        'The language of the mail, chosen as the signing page chooses its own (the mail is written in `en`, `fr`, `de` and `es`).',
    },
  ],
  response: EmailCodeSent,
  errors: [
    'email_2fa_not_required',
    'code_resend_too_soon',
    'code_send_limit_reached',
    'submitter_already_finalized',
    'submission_not_active',
  ],
  handler: async ({ headers }, signer, deps) => {
    if (signer.submitter.require_email_2fa !== 1) throw notRequired()
    return deps.db.transaction().execute(async (tx) => {
      const session = await openSession(tx, deps, signer)
      const refusal = refusalOf(session, 'email_code')
      if (refusal) throw refusal
      const { submitter } = session
      const now = deps.clock.now()
      // docs/api.md#signer-groups: each member of a group has codes of their own.
      const memberId = memberKeyOf(session.member)
      const previous = await findEmailCode(tx, submitter, memberId)
      const sends = recentSends(previous, now)
      checkSendAllowed(previous, sends, now)
      const payload = await codeMailPayload(tx, session, pickLanguage(headers['accept-language']))
      const jobId = await enqueue(tx, deps, emailCodeJob, payload)
      const code = deriveEmailCode(deps.keys.emailCodeSeed, submitter.id, jobId)
      const expiresAt = new Date(now.getTime() + EMAIL_CODE.ttlMs)
      await saveEmailCode(tx, {
        submitter_id: submitter.id,
        member_id: memberId,
        account_id: submitter.account_id,
        environment: submitter.environment,
        code_hash: hashEmailCode(deps.keys.emailCode, submitter.id, code),
        sent_to: submitter.email,
        sent_at: toIso(now),
        expires_at: toIso(expiresAt),
        wrong_tries: 0,
        used_at: null,
        recent_sends: JSON.stringify([...sends, toIso(now)].slice(-EMAIL_CODE.maxSends)),
      })
      return {
        object: 'email_2fa_code' as const,
        sent_to: submitter.email,
        expires_at: toIso(expiresAt),
        resend_at: toIso(new Date(now.getTime() + EMAIL_CODE.resendAfterMs)),
      }
    })
  },
})
