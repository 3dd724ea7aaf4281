// docs/api.md#signers: a signer holds either the slug of their signing URL (random, ≥ 128 bits) or
// the JWT of their embed URL (HS256 under a key derived from PARAPH_SECRET, always with an expiry).
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
  /**
   * issue #20: the origin of the page that frames the embed (`allowed_origin` of the embed_token
   * request), to which the page posts its messages; absent when the token was issued without one.
   */
  allowed_origin?: string
  /** docs/api.md#signer-groups: the member of a signer group the token is for (`grm_…`). */
  mbr?: string
}

const ISSUER = 'paraph'
const AUDIENCE = 'paraph-signing'

export async function issueEmbedToken(
  key: Uint8Array,
  claims: EmbedClaims,
  expiresAt: Date,
  now: Date,
): Promise<string> {
  const extra = {
    ...(claims.allowed_origin ? { allowed_origin: claims.allowed_origin } : {}),
    ...(claims.mbr ? { mbr: claims.mbr } : {}),
  }
  return new SignJWT({ sid: claims.sid, ...extra })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key)
}

/**
 * RFC 7515 §2: a JWS segment is base64url without padding. Decoders (jose's too) also read a
 * trailing `=` and ignore the unused low bits of the last character, so one genuine token has
 * several spellings: only the one the encoder writes is accepted, like any other edit.
 */
function isCanonicalBase64url(segment: string): boolean {
  return (
    /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment
  )
}

const invalidToken = () => new ApiError('invalid_signing_token', 'This signing link is not valid.')

/** The claims of a genuine, unexpired token; 401 for anything else (forged, `alg: none`, expired, respelled). */
export async function verifyEmbedToken(key: Uint8Array, token: string, now: Date): Promise<EmbedClaims> {
  if (!token.split('.').every(isCanonicalBase64url)) throw invalidToken()
  let claims: EmbedClaims
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'sub', 'sid'],
      currentDate: now,
    })
    claims = { sub: String(payload.sub), sid: String(payload.sid) }
    if (typeof payload.allowed_origin === 'string') claims.allowed_origin = payload.allowed_origin
    if (typeof payload.mbr === 'string') claims.mbr = payload.mbr
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_JWT_EXPIRED') throw invalidToken()
    throw new ApiError(
      'invalid_signing_token',
      'This signing link has expired; ask the sender for a new one.',
    )
  }
  return claims
}

/** Default lifetime of the embed token in a creation response: until the submission expires, else 30 days. */
export function embedExpiry(now: Date, submissionExpiresAt: string | null): Date {
  return submissionExpiresAt
    ? new Date(submissionExpiresAt)
    : new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000)
}
