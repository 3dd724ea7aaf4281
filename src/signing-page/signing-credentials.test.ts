import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SignJWT, UnsecuredJWT } from 'jose'
import { ApiError } from '../errors.ts'
import { deriveKey } from '../lib/crypto.ts'
import { issueEmbedToken, newSigningSlug, verifyEmbedToken } from './signing-credentials.ts'

const key = deriveKey('x'.repeat(40), 'embed-jwt-v1')
const now = new Date('2026-11-22T10:00:00Z')
const later = new Date('2026-11-23T10:00:00Z')

async function refused(token: string, at = now) {
  await assert.rejects(
    verifyEmbedToken(key, token, at),
    (e: unknown) => e instanceof ApiError && e.status === 401,
  )
}

describe('signing credentials', () => {
  it('makes slugs of at least 128 bits', () => {
    const slug = newSigningSlug()
    assert.match(slug, /^[0-9A-Za-z]{22}$/)
    assert.ok(22 * Math.log2(62) >= 128)
    assert.notEqual(newSigningSlug(), slug)
  })

  it('round-trips an embed token until it expires', async () => {
    const token = await issueEmbedToken(key, { sub: 'sbm_1', sid: 'sub_1' }, later, now)
    assert.deepEqual(await verifyEmbedToken(key, token, now), { sub: 'sbm_1', sid: 'sub_1' })
    await refused(token, new Date(later.getTime() + 1000))
  })

  it('refuses forged, alg:none, wrong-key and edited tokens', async () => {
    const token = await issueEmbedToken(key, { sub: 'sbm_1', sid: 'sub_1' }, later, now)
    await refused(token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA'))
    await refused(
      await issueEmbedToken(
        deriveKey('y'.repeat(40), 'embed-jwt-v1'),
        { sub: 'sbm_1', sid: 'sub_1' },
        later,
        now,
      ),
    )
    await refused(new UnsecuredJWT({ sid: 'sub_1' }).setSubject('sbm_1').setExpirationTime('1h').encode())
    const noExpiry = await new SignJWT({ sid: 'sub_1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('sbm_1')
      .setIssuer('paraph')
      .setAudience('paraph-signing')
      .sign(key)
    await refused(noExpiry)
    await refused('not.a.jwt')
  })
})
