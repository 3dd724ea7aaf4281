// The token of a signer's `current_pdf_url`, `/files/current/{grant}`:
// `{submission id}.{submitter id}.{expiry, Unix seconds}.{HMAC}` — with `.{member id}` after the
// submitter's for a member of a signer group — the HMAC over the ids, the expiry and the signer's
// (the member's) current e-mail address, under a key of its own derived from the signer-session
// key. The form hands it out only where it shows the documents (never to a link whose e-mail code
// is not verified), so it stands in for that session on this one download, which a plain link
// cannot present otherwise (an embedded page's cookie is often blocked, a link sends no header).
// It names neither the signing slug nor the embed token. Like the signed file URLs it expires after
// an hour; like the session, a changed address voids it.
import { createHmac } from 'node:crypto'
import type { SubmittersTable } from '../db/tables.ts'
import { safeEqual } from '../lib/crypto.ts'

/** `member_id`: the group member the grant is for (docs/api.md#signer-groups); absent or null otherwise. */
type Holder = Pick<SubmittersTable, 'id' | 'submission_id' | 'email'> & { member_id?: string | null }

export interface Grant {
  submissionId: string
  submitterId: string
  memberId: string | null
  /** Expiry, Unix seconds. */
  exp: number
  mac: string
}

const SHAPE =
  /^(sub_[A-Za-z0-9]{24})\.(sbm_[A-Za-z0-9]{24})(?:\.(grm_[A-Za-z0-9]{24}))?\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/

/** The ids a grant names: the submitter's, then the member's when there is one. */
function idsOf(holder: Holder): string {
  return holder.member_id ? `${holder.id}.${holder.member_id}` : holder.id
}

function mac(sessionKey: Uint8Array, submitter: Holder, exp: number): string {
  const key = createHmac('sha256', sessionKey).update('current-pdf-grant-v1').digest()
  return createHmac('sha256', key)
    .update(`${submitter.submission_id}.${idsOf(submitter)}.${exp}.${submitter.email}`)
    .digest('base64url')
}

export function issueCurrentPdfGrant(sessionKey: Uint8Array, submitter: Holder, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000)
  return `${submitter.submission_id}.${idsOf(submitter)}.${exp}.${mac(sessionKey, submitter, exp)}`
}

/** The grant's parts, or null when it does not even look like one. */
export function parseCurrentPdfGrant(text: string): Grant | null {
  const match = SHAPE.exec(text)
  if (!match) return null
  return {
    submissionId: match[1]!,
    submitterId: match[2]!,
    memberId: match[3] ?? null,
    exp: Number(match[4]),
    mac: match[5]!,
  }
}

/** Whether `grant` was issued to this signer, at their current address, and has not expired. */
export function grantUnlocks(sessionKey: Uint8Array, grant: Grant, submitter: Holder, now: Date): boolean {
  if (grant.submitterId !== submitter.id || grant.submissionId !== submitter.submission_id) return false
  if (grant.memberId !== (submitter.member_id ?? null)) return false
  if (grant.exp * 1000 <= now.getTime()) return false
  return safeEqual(grant.mac, mac(sessionKey, submitter, grant.exp))
}
