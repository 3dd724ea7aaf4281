// The signer's session once the e-mail code is verified (`email_2fa/verify` in
// docs/api.md#e-mail-code-2fa): `{submitter id}.{expiry, Unix seconds}.{HMAC}`, the HMAC under a
// key derived from PARAPH_SECRET over the id, the expiry and the signer's current e-mail address —
// so a changed address (PATCH /v1/submitters/{id}) ends every session at once, and nothing is
// stored.
//
// It travels two ways. A cookie, HttpOnly and SameSite=Lax (Secure when SIGNING_URL is https), with
// the path of the signer's own link (`/s/{slug}` or `/embed/{jwt}`): two signers in one browser
// never send each other's. And a request header, `Paraph-Signer-Session`, which the page keeps in
// memory from the verify answer: an embedded page is framed cross-site, where a SameSite=Lax cookie
// is not sent and third-party cookies are often blocked.

import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { SubmittersTable } from '../db/tables.ts'
import type { Clock } from '../lib/clock.ts'
import { safeEqual } from '../lib/crypto.ts'

export const SESSION_COOKIE = 'paraph_signer_session'
export const SESSION_HEADER = 'Paraph-Signer-Session'
/** Long enough to read and sign a long contract; a new code opens a new one. */
export const SESSION_TTL_MS = 2 * 60 * 60 * 1000

type Holder = Pick<SubmittersTable, 'id' | 'email'>

/** A session value is about 85 characters; anything much longer is not one. */
const MAX_VALUE = 200
const MAX_PRESENTED = 8

function mac(key: Uint8Array, submitterId: string, exp: number, email: string): string {
  return createHmac('sha256', key).update(`${submitterId}.${exp}.${email}`).digest('base64url')
}

export function issueSignerSession(
  key: Uint8Array,
  submitter: Holder,
  now: Date,
): { value: string; expiresAt: Date } {
  const exp = Math.floor((now.getTime() + SESSION_TTL_MS) / 1000)
  return {
    value: `${submitter.id}.${exp}.${mac(key, submitter.id, exp, submitter.email)}`,
    expiresAt: new Date(exp * 1000),
  }
}

/** Whether `value` is a genuine, unexpired session of this signer at their current address. */
export function sessionUnlocks(key: Uint8Array, value: string, submitter: Holder, now: Date): boolean {
  const [id, expText, given, extra] = value.split('.')
  if (extra !== undefined || id !== submitter.id || !expText || !given || !/^\d{1,12}$/.test(expText))
    return false
  const exp = Number(expText)
  if (exp * 1000 <= now.getTime()) return false
  return safeEqual(given, mac(key, submitter.id, exp, submitter.email))
}

/** Whether any presented session unlocks this signer. */
export function hasVerifiedSession(
  ctx: { keys: { signerSession: Uint8Array }; clock: Clock },
  sessions: readonly string[],
  submitter: Holder,
): boolean {
  const now = ctx.clock.now()
  return sessions.some((value) => sessionUnlocks(ctx.keys.signerSession, value, submitter, now))
}

/** The session values a request presents: the header first, then every cookie of that name. */
export function presentedSessions(headers: IncomingHttpHeaders): string[] {
  const out: string[] = []
  const header = headers[SESSION_HEADER.toLowerCase()]
  for (const value of [header].flat()) if (value) out.push(value.trim())
  for (const pair of (headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) out.push(pair.slice(at + 1).trim())
  }
  return out.filter((v) => v.length > 0 && v.length <= MAX_VALUE).slice(0, MAX_PRESENTED)
}

/** The Set-Cookie value of a session, for the signer's own link path. */
export function sessionCookie(
  value: string,
  path: string,
  expiresAt: Date,
  now: Date,
  secure: boolean,
): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000))
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
  ]
  if (secure) parts.push('Secure')
  return parts.join('; ')
}
