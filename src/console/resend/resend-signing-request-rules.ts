// The console's "Resend request" (docs/console.md), the rules: whom a signing request may be sent to
// again, and how often. Pure.
import type { SubmissionsTable, SubmittersTable } from '../../db/tables.ts'
import { ApiError } from '../../errors.ts'
import { FINAL_STATUSES } from '../../lifecycle/submission-moves.ts'
import { nextSigners } from '../../submissions/signing-requests.ts'

export const RESEND_SPACING_MS = 5 * 60_000
export const RESEND_DAY_MS = 24 * 60 * 60_000
export const RESENDS_PER_DAY = 5

/**
 * Why `submitter` may not be asked again, or null. Only a request that went out can be resent: the
 * signer is still to act, the submission has not ended (nor lapsed before the expiry sweep), it is
 * their turn (preserved order mails the next signer only) and their requests go by e-mail.
 */
export function resendRefusal(
  submitter: SubmittersTable,
  submission: Pick<SubmissionsTable, 'status' | 'expires_at' | 'signing_order'>,
  everyone: SubmittersTable[],
  now: Date,
): ApiError | null {
  if (submitter.status !== 'pending' && submitter.status !== 'opened') {
    return new ApiError(
      'submitter_already_finalized',
      `This signer is ${submitter.status}; only a signer still to sign can be sent the request again.`,
    )
  }
  const lapsed = submission.expires_at !== null && new Date(submission.expires_at) <= now
  const ended = FINAL_STATUSES.includes(submission.status) ? submission.status : lapsed ? 'expired' : null
  if (ended) {
    return new ApiError(
      'submission_already_finalized',
      `The submission is ${ended}; its signing requests can no longer be sent.`,
    )
  }
  if (submitter.send_email !== 1) {
    return new ApiError(
      'submitter_not_yet_requested',
      'This signer is not sent e-mail (send_email is off): share their signing link instead.',
    )
  }
  if (!nextSigners(submission.signing_order, everyone).some((s) => s.id === submitter.id)) {
    return new ApiError(
      'submitter_not_yet_requested',
      'It is not this signer’s turn yet: the signers before them in the signing order must sign first.',
    )
  }
  return null
}

/**
 * 429 when the signer was sent the request again less than 5 minutes ago, or 5 times in the last
 * 24 hours; `recent` are the times (ISO) of their resends in the last 24 hours. Retry-After says
 * when the next one is allowed.
 */
export function resendLimit(recent: string[], now: Date): ApiError | null {
  const at = now.getTime()
  const times = recent.map((t) => new Date(t).getTime()).sort((a, b) => a - b)
  const last = times.at(-1)
  let allowedAt: number | null = null
  let rule = ''
  if (last !== undefined && last + RESEND_SPACING_MS > at) {
    allowedAt = last + RESEND_SPACING_MS
    rule = 'once every 5 minutes'
  }
  const day = times.filter((t) => t + RESEND_DAY_MS > at)
  if (day.length >= RESENDS_PER_DAY) {
    const dayAllowedAt = day[day.length - RESENDS_PER_DAY]! + RESEND_DAY_MS
    if (allowedAt === null || dayAllowedAt > allowedAt) {
      allowedAt = dayAllowedAt
      rule = `${RESENDS_PER_DAY} times in 24 hours`
    }
  }
  if (allowedAt === null) return null
  const retry = Math.max(1, Math.ceil((allowedAt - at) / 1000))
  return new ApiError(
    'rate_limit_exceeded',
    `A signing request can be sent again at most ${rule} per signer; retry in ${retry} s.`,
    { 'retry-after': String(retry) },
  )
}
