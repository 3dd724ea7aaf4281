// docs/api.md#e-mail-code-2fa `email_2fa/send` and `email_2fa/verify` (`require_email_2fa` in
// docs/api.md#e-mail-code-2fa): the one-time code a guarded signer enters before the document
// opens. Pure: the code, its HMAC, the verdict on a try, and when a new one may be sent.
//
// The code is never stored in clear, the outbox included. It is not drawn at random and
// carried by the mail job: it is derived from the job's own id under a key of PARAPH_SECRET, and the
// mail is rendered when the job runs (email-code-job.ts). The database holds the code's HMAC and the
// job's id; without the secret neither gives the code (with it, the HMAC of a 6-digit code could be
// reversed by trying a million codes anyway). Every attempt of the job sends the same code.
import type { Email2faCodesTable, SubmittersTable } from '../db/tables.ts'
import { hmacSha256Hex, safeEqual } from '../lib/crypto.ts'

/**
 * docs/api.md#e-mail-code-2fa: valid 10 minutes; resending within 30 s is 429, at most 10 codes per
 * signer in 24 hours. The fifth wrong try voids the code.
 */
export const EMAIL_CODE = {
  digits: 6,
  ttlMs: 10 * 60_000,
  resendAfterMs: 30_000,
  maxWrongTries: 5,
  maxSends: 10,
  sendsWindowMs: 24 * 3600_000,
} as const

/**
 * The code of the mail job `jobId` for this signer: 6 digits from an HMAC under the seed key (the
 * first 64 bits modulo 10^6; the bias, 2^64 mod 10^6 over 2^64, is below 10^-13).
 */
export function deriveEmailCode(seedKey: Uint8Array, submitterId: string, jobId: string): string {
  const value = BigInt(`0x${hmacSha256Hex(seedKey, `${submitterId}:${jobId}`).slice(0, 16)}`)
  return (value % 10n ** BigInt(EMAIL_CODE.digits)).toString().padStart(EMAIL_CODE.digits, '0')
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

/** The sends of the last 24 hours, oldest first (the row keeps at most the last 10). */
export function recentSends(row: Pick<Email2faCodesTable, 'recent_sends'> | undefined, now: Date): string[] {
  if (!row) return []
  const since = now.getTime() - EMAIL_CODE.sendsWindowMs
  return (JSON.parse(row.recent_sends) as string[]).filter((at) => new Date(at).getTime() > since)
}

/** Milliseconds until a code may be sent under the daily cap (10 in any 24 hours); 0 when it may now. */
export function sendLimitWaitMs(sends: string[], now: Date): number {
  if (sends.length < EMAIL_CODE.maxSends) return 0
  const oldest = new Date(sends[sends.length - EMAIL_CODE.maxSends]!).getTime()
  return Math.max(0, oldest + EMAIL_CODE.sendsWindowMs - now.getTime())
}
