// The token of a signer's `current_pdf_url`, `/files/current/{grant}`:
// `{submission id}.{submitter id}.{expiry, Unix seconds}.{HMAC}`, the HMAC over the ids, the expiry
// and the signer's current e-mail address, under a key of its own derived from the signer-session
// key. The form hands it out only where it shows the documents (never to a link whose e-mail code
// is not verified), so it stands in for that session on this one download, which a plain link
// cannot present otherwise (an embedded page's cookie is often blocked, a link sends no header).
// It names neither the signing slug nor the embed token. Like the signed file URLs it expires after
// an hour; like the session, a changed address voids it.
import { createHmac } from 'node:crypto'
import type { SubmittersTable } from '../db/tables.ts'
import { safeEqual } from '../lib/crypto.ts'

type Holder = Pick<SubmittersTable, 'id' | 'submission_id' | 'email'>

export interface Grant {
  submissionId: string
  submitterId: string
  /** Expiry, Unix seconds. */
  exp: number
  mac: string
}

const SHAPE = /^(sub_[A-Za-z0-9]{24})\.(sbm_[A-Za-z0-9]{24})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/

function mac(sessionKey: Uint8Array, submitter: Holder, exp: number): string {
  const key = createHmac('sha256', sessionKey).update('current-pdf-grant-v1').digest()
  return createHmac('sha256', key)
    .update(`${submitter.submission_id}.${submitter.id}.${exp}.${submitter.email}`)
    .digest('base64url')
}

export function issueCurrentPdfGrant(sessionKey: Uint8Array, submitter: Holder, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000)
  return `${submitter.submission_id}.${submitter.id}.${exp}.${mac(sessionKey, submitter, exp)}`
}

/** The grant's parts, or null when it does not even look like one. */
export function parseCurrentPdfGrant(text: string): Grant | null {
  const match = SHAPE.exec(text)
  if (!match) return null
  return { submissionId: match[1]!, submitterId: match[2]!, exp: Number(match[3]), mac: match[4]! }
}

/** Whether `grant` was issued to this signer, at their current address, and has not expired. */
export function grantUnlocks(sessionKey: Uint8Array, grant: Grant, submitter: Holder, now: Date): boolean {
  if (grant.submitterId !== submitter.id || grant.submissionId !== submitter.submission_id) return false
  if (grant.exp * 1000 <= now.getTime()) return false
  return safeEqual(grant.mac, mac(sessionKey, submitter, grant.exp))
}
