// PATCH /v1/submitters/{id} (docs/api.md#changing-a-submitter), the rules: when a submitter may
// still be changed, and what a request changes. Pure.
import type { SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import { ApiError } from '../errors.ts'
import { storedEmail } from '../lib/email-address.ts'
import { FINAL_STATUSES } from '../lifecycle/submission-moves.ts'

export interface ContactRequest {
  email?: string
  phone?: string | null
  name?: string | null
}

export type ContactField = 'email' | 'phone' | 'name'

export interface ContactChange {
  /** The fields whose value differs from the stored one, in a fixed order. */
  changed: ContactField[]
  /** The columns to write; empty when nothing changed. */
  set: Partial<Pick<SubmittersTable, ContactField | 'email_key' | 'signing_slug' | 'email_2fa_verified_at'>>
  /** The address before and after, when it changed. */
  email: { from: string; to: string } | null
}

/**
 * 409 submitter_already_finalized unless the submitter is `pending` or `opened`
 * (docs/api.md#changing-a-submitter). Decided where the contract is silent: a submission that ended
 * (completed, declined, expired — even before the expiry sweep moved it — or cancelled) is 409
 * submission_already_finalized, as DELETE answers it.
 */
export function patchRefusal(
  submitter: Pick<SubmittersTable, 'status'>,
  submission: Pick<SubmissionsTable, 'status' | 'expires_at'>,
  now: Date,
): ApiError | null {
  // A submission fenced for finalization has every submitter finished: refused here first.
  if (submitter.status !== 'pending' && submitter.status !== 'opened') {
    return new ApiError(
      'submitter_already_finalized',
      `This submitter is ${submitter.status}; only a pending or opened submitter can be changed.`,
    )
  }
  const lapsed = submission.expires_at !== null && new Date(submission.expires_at) <= now
  const ended = FINAL_STATUSES.includes(submission.status) ? submission.status : lapsed ? 'expired' : null
  if (ended) {
    return new ApiError(
      'submission_already_finalized',
      `The submission is ${ended}; its submitters can no longer be changed.`,
    )
  }
  return null
}

/**
 * What the request changes. Addresses are stored as at creation (docs/api.md#e-mail-addresses):
 * written, lower-cased, with their comparison key; an address with the stored one's key
 * (`ANN@example.eu`, or the xn-- spelling of its domain) changes nothing. A new address gets a new
 * signing slug (the old link then names no one) and forgets the e-mail code verified at the old one.
 */
export function contactChange(
  current: Pick<SubmittersTable, ContactField | 'email_key'>,
  request: ContactRequest,
  newSlug: () => string,
): ContactChange {
  const change: ContactChange = { changed: [], set: {}, email: null }
  const stored = request.email === undefined ? undefined : storedEmail(request.email)
  if (stored !== undefined && stored.email_key !== current.email_key) {
    change.changed.push('email')
    change.set = { ...stored, signing_slug: newSlug(), email_2fa_verified_at: null }
    change.email = { from: current.email, to: stored.email }
  }
  for (const field of ['phone', 'name'] as const) {
    const value = request[field]
    if (value !== undefined && value !== current[field]) {
      change.changed.push(field)
      change.set[field] = value
    }
  }
  return change
}
