// POST /s/{slug}/email_2fa/verify and POST /embed/{jwt}/email_2fa/verify —
// docs/api.md#e-mail-code-2fa: the signer enters the mailed code. Right: the code is used up, the
// time is kept for the audit trail with a journal event (`submitter.email_2fa_verified`, address
// and user agent), and the answer opens a session (email-code-session.ts) as a cookie and as a
// value for the `Paraph-Signer-Session` header. Wrong: 422 `invalid_code`, counted — the fifth
// wrong try voids the code. Expired, void, used or never sent: 422 `code_expired`. The count
// commits even though the answer is a refusal.
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { Timestamp } from '../http/common-schemas.ts'
import { toIso } from '../lib/clock.ts'
import { memberData, memberKeyOf } from '../submissions/signer-groups.ts'
import { EMAIL_CODE, judgeCode } from './email-code.ts'
import { issueSignerSession, SESSION_HEADER, sessionCookie } from './email-code-session.ts'
import { findEmailCode, recordWrongTry, useEmailCode } from './email-code-store.ts'
import { notRequired } from './send-email-code.ts'
import { openSession, refusalOf } from './signer-act-lock.ts'
import { defineSignerRoutes } from './signer-routes.ts'

const VerifyBody = Type.Object(
  { code: Type.String({ pattern: '^[0-9]{6}$', description: 'The 6 digits of the mail' }) },
  { additionalProperties: false, title: 'EmailCodeRequest' },
)

const SignerSession = Type.Object(
  {
    object: Type.Literal('signer_session'),
    session: Type.String({
      description: `Proof of the verified code. Also set as a cookie; a page that cannot rely on cookies (embedded cross-site) keeps it in memory and sends it in the \`${SESSION_HEADER}\` header.`,
    }),
    expires_at: { ...Timestamp, description: 'End of the session (2 hours); then a new code is needed' },
  },
  { title: 'SignerSession' },
)

function codeRefusal(verdict: 'wrong' | 'expired' | 'void', left: number): ApiError {
  if (verdict === 'wrong') {
    return new ApiError(
      'invalid_code',
      left > 0
        ? `This is not the code; ${left} ${left === 1 ? 'try' : 'tries'} left.`
        : 'This is not the code, and it was the last try: ask for a new code.',
    )
  }
  return new ApiError(
    'code_expired',
    verdict === 'expired'
      ? 'This code has expired (10 minutes); ask for a new one.'
      : 'There is no code to check: it was already used, tried wrongly 5 times, or never sent; ask for a new one.',
  )
}

export const [verifyEmailCode, verifyEmbedEmailCode] = defineSignerRoutes({
  operationIds: ['verifyEmailCode', 'verifyEmbedEmailCode'],
  method: 'POST',
  action: 'email_2fa/verify',
  summary: 'Check the mailed code and open a signer session',
  description:
    'Right code: the session that unlocks `form` documents, `open`, `sign` and `decline` for 2 hours, as a cookie (HttpOnly, SameSite=Lax, Secure when SIGNING_URL is https, path of this signing link) and in the body for the `Paraph-Signer-Session` header. A code is used once; the fifth wrong try voids it (further tries are `code_expired`, even with the right code, until a new one is sent).',
  body: VerifyBody,
  response: SignerSession,
  responseHeaders: {
    'Set-Cookie': 'The session cookie `paraph_signer_session` for this signing link’s path',
    'Cache-Control': '`no-store`',
  },
  errors: [
    'email_2fa_not_required',
    'invalid_code',
    'code_expired',
    'submitter_already_finalized',
    'submission_not_active',
  ],
  handler: async ({ body, ip, userAgent, reply }, signer, deps) => {
    if (signer.submitter.require_email_2fa !== 1) throw notRequired()
    const now = deps.clock.now()
    const outcome = await deps.db.transaction().execute(async (tx) => {
      const session = await openSession(tx, deps, signer)
      const refusal = refusalOf(session, 'email_code')
      if (refusal) throw refusal
      const { submitter, member } = session
      const memberId = memberKeyOf(member)
      const verdict = judgeCode(
        deps.keys.emailCode,
        await findEmailCode(tx, submitter, memberId),
        submitter,
        body.code,
        now,
      )
      if (verdict === 'wrong') {
        return { verdict, left: EMAIL_CODE.maxWrongTries - (await recordWrongTry(tx, submitter, memberId)) }
      }
      if (verdict !== 'right') return { verdict, left: 0 }
      const at = toIso(now)
      await useEmailCode(tx, submitter, member, at)
      await appendEvent(
        tx,
        deps,
        { accountId: submitter.account_id, environment: submitter.environment },
        {
          type: 'submitter.email_2fa_verified',
          submissionId: submitter.submission_id,
          submitterId: submitter.id,
          data: { submitter_id: submitter.id, ...memberData(member), via: signer.via, at },
          actor: { ip, userAgent: userAgent ?? null },
        },
      )
      return { verdict, left: 0, submitter }
    })
    if (outcome.verdict !== 'right') throw codeRefusal(outcome.verdict, outcome.left)
    const { value, expiresAt } = issueSignerSession(deps.keys.signerSession, outcome.submitter, now)
    const secure = new URL(deps.config.signingUrl).protocol === 'https:'
    reply.header('set-cookie', sessionCookie(value, signer.path, expiresAt, now, secure))
    reply.header('cache-control', 'no-store')
    return { object: 'signer_session' as const, session: value, expires_at: toIso(expiresAt) }
  },
})
