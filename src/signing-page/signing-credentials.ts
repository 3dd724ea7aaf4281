// operations.md §3: a signer holds either the slug of their signing URL (random, ≥ 128 bits) or the
// JWT of their embed URL (HS256 under a key derived from PARAPH_SECRET, always with an expiry).
import { jwtVerify, SignJWT } from 'jose'
import { ApiError } from '../errors.ts'
import { randomBase62 } from '../lib/ids.ts'

/** 22 base62 characters: 130 bits. */
export function newSigningSlug(): string {
  return randomBase62(22)
}

export function signingUrl(base: string, slug: string): string {
  return `${base}/s/${slug}`
}

export function embedUrl(base: string, token: string): string {
  return `${base}/embed/${token}`
}

export interface EmbedClaims {
  /** Submitter id. */
  sub: string
  /** Submission id. */
  sid: string
}

const ISSUER = 'paraph'
const AUDIENCE = 'paraph-signing'

export async function issueEmbedToken(
  key: Uint8Array,
  claims: EmbedClaims,
  expiresAt: Date,
  now: Date,
): Promise<string> {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key)
}

/** The claims of a genuine, unexpired token; 401 for anything else (forged, `alg: none`, expired). */
export async function verifyEmbedToken(key: Uint8Array, token: string, now: Date): Promise<EmbedClaims> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'sub', 'sid'],
      currentDate: now,
    })
    return { sub: String(payload.sub), sid: String(payload.sid) }
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED'
    throw new ApiError(
      'invalid_signing_token',
      expired
        ? 'This signing link has expired; ask the sender for a new one.'
        : 'This signing link is not valid.',
    )
  }
}

/** Default lifetime of the embed token in a creation response: until the submission expires, else 30 days. */
export function embedExpiry(now: Date, submissionExpiresAt: string | null): Date {
  return submissionExpiresAt
    ? new Date(submissionExpiresAt)
    : new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000)
}
