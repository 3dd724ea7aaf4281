// operations.md §3 `email_2fa/send` and `email_2fa/verify` (api-v1 §2.3 `require_email_2fa`): the
// one-time code a guarded signer enters before the document opens. Pure: the code, its HMAC, the
// verdict on a try, when a new one may be sent, and the mail that carries it.
import type { Email2faCodesTable, SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import { hmacSha256Hex, safeEqual } from '../lib/crypto.ts'
import { randomDigits } from '../lib/ids.ts'
import type { MailMessage } from '../mail/mail-job.ts'

/** api-v1 §8: valid 10 minutes. operations.md §3: resending within 30 s is 429. security-notes: void after 5 wrong. */
export const EMAIL_CODE = { digits: 6, ttlMs: 10 * 60_000, resendAfterMs: 30_000, maxWrongTries: 5 } as const

export function newEmailCode(): string {
  return randomDigits(EMAIL_CODE.digits)
}

/** Keyed by the signer too, so one code's hash says nothing about another signer's. */
export function hashEmailCode(key: Uint8Array, submitterId: string, code: string): string {
  return hmacSha256Hex(key, `${submitterId}:${code}`)
}

/**
 * `void`: nothing to check against — never sent, already used, 5 wrong tries, or sent to an address
 * the signer no longer has (PATCH /v1/submitters/{id}). Both `void` and `expired` are 422 code_expired.
 */
export type CodeVerdict = 'right' | 'wrong' | 'expired' | 'void'

export function judgeCode(
  key: Uint8Array,
  row: Email2faCodesTable | undefined,
  submitter: Pick<SubmittersTable, 'id' | 'email'>,
  code: string,
  now: Date,
): CodeVerdict {
  if (!row || row.used_at !== null || row.wrong_tries >= EMAIL_CODE.maxWrongTries) return 'void'
  if (row.sent_to !== submitter.email) return 'void'
  if (new Date(row.expires_at).getTime() <= now.getTime()) return 'expired'
  return safeEqual(row.code_hash, hashEmailCode(key, submitter.id, code)) ? 'right' : 'wrong'
}

/** Milliseconds before another code may be sent; 0 when it may be sent now. */
export function resendWaitMs(row: Pick<Email2faCodesTable, 'sent_at'> | undefined, now: Date): number {
  if (!row) return 0
  return Math.max(0, new Date(row.sent_at).getTime() + EMAIL_CODE.resendAfterMs - now.getTime())
}

/** The mail of a code. Plain text, like every mail queued today (mail-job.ts `MailMessage`). */
export function emailCodeMessage(
  submitter: Pick<SubmittersTable, 'name'>,
  submission: Pick<SubmissionsTable, 'message_subject'>,
  code: string,
  expiresAt: Date,
): Pick<MailMessage, 'subject' | 'text'> {
  const greeting = submitter.name ? `Hello ${submitter.name},` : 'Hello,'
  const about = submission.message_subject ? ` "${submission.message_subject}"` : ''
  return {
    subject: 'Your code to open the document to sign',
    text:
      `${greeting}\n\nEnter this code to open the document${about} you were asked to sign:\n\n` +
      `    ${code}\n\nIt can be used once, until ${expiresAt.toISOString()} (10 minutes). ` +
      'If you did not ask for it, ignore this e-mail: nobody can sign in your name without it.\n',
  }
}
