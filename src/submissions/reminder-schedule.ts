// docs/api.md#reminders, the rules: the effective policy of a new submission, when each automatic
// reminder is due, who may be reminded by hand and how often. Pure: reminders.ts applies them in
// the transaction that sends or schedules.
import type { Config } from '../config.ts'
import type { SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import { ApiError } from '../errors.ts'
import { FINAL_STATUSES } from '../lifecycle/submission-moves.ts'
import { reminderPolicyOf } from '../lifecycle/submission-snapshot.ts'
import type { ReminderPolicy } from './creation-schemas.ts'
import { nextSigners } from './signing-requests.ts'

type PolicyColumns = Pick<
  SubmissionsTable,
  'reminder_first_hours' | 'reminder_every_hours' | 'reminder_max_count'
>

/** The policy a new submission keeps: the one given, none for `false`, else the instance's REMINDERS. */
export function policyColumns(
  given: ReminderPolicy | false | undefined,
  fallback: Config['reminders'],
): PolicyColumns {
  const policy =
    given === undefined
      ? fallback && {
          first_after_hours: fallback.firstAfterHours,
          every_hours: fallback.everyHours,
          max_count: fallback.maxCount,
        }
      : given
  if (!policy) return { reminder_first_hours: null, reminder_every_hours: null, reminder_max_count: null }
  return {
    reminder_first_hours: policy.first_after_hours,
    reminder_every_hours: policy.every_hours,
    reminder_max_count: policy.max_count,
  }
}

/** One hour of the policy in milliseconds (REMINDER_HOUR_SECONDS, 3600 but in tests). */
export function policyHourMs(config: Pick<Config, 'reminderHourSeconds'>): number {
  return config.reminderHourSeconds * 1000
}

/** A due time, or null when the submission expires first (a reminder would come too late). */
function beforeExpiry(due: number, expiresAt: string | null): Date | null {
  return expiresAt !== null && due >= new Date(expiresAt).getTime() ? null : new Date(due)
}

/** The first automatic reminder of a signer whose clock starts `now`; null when there is none. */
export function firstReminderAt(
  submission: PolicyColumns & Pick<SubmissionsTable, 'expires_at'>,
  now: Date,
  hourMs: number,
): Date | null {
  const policy = reminderPolicyOf(submission)
  if (!policy) return null
  return beforeExpiry(now.getTime() + policy.first_after_hours * hourMs, submission.expires_at)
}

/**
 * After automatic reminder number `sent` went out (it was due at `dueAt`): the next one, every
 * `every_hours` from the one before (a manual reminder moves nothing), never in the past (a worker
 * away for a day sends one late reminder, not a burst); null after `max_count` or past the expiry.
 */
export function nextReminderAt(
  submission: PolicyColumns & Pick<SubmissionsTable, 'expires_at'>,
  sent: number,
  dueAt: Date,
  now: Date,
  hourMs: number,
): Date | null {
  const policy = reminderPolicyOf(submission)
  if (!policy || sent >= policy.max_count) return null
  const every = policy.every_hours * hourMs
  const next = dueAt.getTime() + every
  return beforeExpiry(next > now.getTime() ? next : now.getTime() + every, submission.expires_at)
}

type SubmissionState = Pick<SubmissionsTable, 'status' | 'expires_at' | 'signing_order'>

/**
 * Why `submitter` may not be reminded now, or null: a signer still to sign, of a submission that has
 * not ended (nor lapsed before the expiry sweep), whose turn it is, and who is sent e-mail.
 */
export function remindRefusal(
  submitter: SubmittersTable,
  submission: SubmissionState,
  everyone: SubmittersTable[],
  now: Date,
): ApiError | null {
  if (submitter.status !== 'pending' && submitter.status !== 'opened') {
    const status = submitter.status === 'pre_signed' ? 'pre-signed' : submitter.status
    return new ApiError(
      'submitter_already_finalized',
      `This signer has ${status === 'pre-signed' ? 'been pre-signed' : status}; only a signer still to sign can be reminded.`,
    )
  }
  const lapsed = submission.expires_at !== null && new Date(submission.expires_at) <= now
  const ended = FINAL_STATUSES.includes(submission.status) ? submission.status : lapsed ? 'expired' : null
  if (ended)
    return new ApiError('submission_already_finalized', `The submission is ${ended}; nobody can be reminded.`)
  if (!nextSigners(submission.signing_order, everyone).some((s) => s.id === submitter.id)) {
    return new ApiError(
      'not_your_turn',
      'It is not this signer’s turn yet (preserved order): the signers before them must sign first.',
    )
  }
  if (submitter.send_email !== 1) {
    return new ApiError(
      'submitter_not_yet_requested',
      'This signer is not sent e-mail (send_email is off), so no reminder either: share their signing link instead.',
    )
  }
  return null
}

/**
 * 429 `reminder_too_soon` when the signer was reminded (by hand or automatically) less than one
 * policy hour ago; Retry-After in seconds until the hour is up.
 */
export function remindTooSoon(lastRemindedAt: string | null, now: Date, hourMs: number): ApiError | null {
  if (lastRemindedAt === null) return null
  const allowedAt = new Date(lastRemindedAt).getTime() + hourMs
  if (allowedAt <= now.getTime()) return null
  const retry = Math.max(1, Math.ceil((allowedAt - now.getTime()) / 1000))
  const minutes = Math.ceil(retry / 60)
  return new ApiError(
    'reminder_too_soon',
    `This signer was reminded less than an hour ago; at most one reminder an hour. Retry in ${retry} s (${minutes} min).`,
    { 'retry-after': String(retry) },
  )
}
