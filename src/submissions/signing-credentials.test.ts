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

  it('carries allowed_origin when issued with one, and only then', async () => {
    const claims = { sub: 'sbm_1', sid: 'sub_1', allowed_origin: 'https://app.example.eu' }
    const token = await issueEmbedToken(key, claims, later, now)
    assert.deepEqual(await verifyEmbedToken(key, token, now), claims)
    const plain = await issueEmbedToken(key, { sub: 'sbm_1', sid: 'sub_1' }, later, now)
    assert.equal('allowed_origin' in (await verifyEmbedToken(key, plain, now)), false)
  })

  // jose decodes all three spellings of the same signature bytes; only the canonical one passes.
  it('refuses a genuine token respelled: a trailing "=", or the unused low bits of the last character changed', async () => {
    const token = await issueEmbedToken(key, { sub: 'sbm_1', sid: 'sub_1' }, later, now)
    const [, , signature] = token.split('.')
    // HS256: 32 bytes in 43 characters, so the last one carries 2 unused low bits.
    assert.equal(signature!.length, 43)
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = ALPHABET.indexOf(token.at(-1)!)
    const lowBits = `${token.slice(0, -1)}${ALPHABET[last ^ 1]}`
    for (const respelled of [`${token}=`, lowBits]) {
      assert.deepEqual(
        Buffer.from(respelled.split('.')[2]!.replace(/=$/, ''), 'base64url'),
        Buffer.from(signature!, 'base64url'),
        'the same signature bytes',
      )
      await refused(respelled)
    }
    await refused(`${token.split('.')[0]}=.${token.split('.').slice(1).join('.')}`)
    assert.deepEqual(await verifyEmbedToken(key, token, now), { sub: 'sbm_1', sid: 'sub_1' })
  })
})
