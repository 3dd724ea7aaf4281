import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canonicalDigest, canonicalJson, deriveKey, seal, sha256Hex, unseal } from './crypto.ts'

describe('seal / unseal', () => {
  const key = deriveKey('master', 'test')

  it('round-trips and is opaque', () => {
    const token = seal(key, '{"a":1}')
    assert.equal(unseal(key, token), '{"a":1}')
    assert.ok(!token.includes('a'.repeat(3)))
    assert.notEqual(seal(key, '{"a":1}'), token, 'a fresh IV every time')
  })

  it('returns null for an edited, truncated or foreign token', () => {
    const token = seal(key, 'hello')
    const edited = token.slice(0, -2) + (token.endsWith('AA') ? 'AB' : 'AA')
    assert.equal(unseal(key, edited), null)
    assert.equal(unseal(key, token.slice(0, 20)), null)
    assert.equal(unseal(deriveKey('other', 'test'), token), null)
    assert.equal(unseal(deriveKey('master', 'other purpose'), token), null)
    assert.equal(unseal(key, '!!!not base64!!!'), null)
  })
})

describe('canonicalJson', () => {
  it('ignores key order at every depth but not array order', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: 2, c: [3, 1] } }),
      canonicalJson({ a: { c: [3, 1], d: 2 }, b: 1 }),
    )
    assert.notEqual(canonicalJson({ a: [1, 3] }), canonicalJson({ a: [3, 1] }))
  })
})

describe('canonicalJson matches JSON for data without key-order differences', () => {
  it('agrees with JSON.stringify on sorted data, escapes and all', () => {
    const data = { a: 'q"uo\\te\n', b: [1, null, true, { c: 2.5, d: 'é' }], e: {} }
    assert.equal(canonicalJson(data), JSON.stringify(data))
    assert.equal(canonicalJson({ x: undefined, y: 1 }), '{"y":1}')
    assert.equal(canonicalJson([undefined]), '[null]')
  })
})

describe('canonicalDigest', () => {
  it('is the SHA-256 of canonicalJson for data without long strings', () => {
    for (const value of [null, 'x', [1, undefined, { b: 'é', a: [true, null] }], { z: { '"q"': 1 } }])
      assert.equal(canonicalDigest(value), sha256Hex(canonicalJson(value)))
  })

  it('ignores key order and tells apart any change, in long strings too', () => {
    const long = 'A'.repeat(5000)
    assert.equal(canonicalDigest({ a: long, b: 1 }), canonicalDigest({ b: 1, a: long }))
    const variants = [
      { a: long },
      { a: `${long}B` },
      { a: `B${long.slice(1)}` },
      { a: long, b: '' },
      { a: long.slice(0, 2000), b: long.slice(2000) },
      { a: JSON.stringify(long) },
      // A long string holding what the digest writes for another one.
      { a: `\u0000${long.length}:${long}` },
      { a: `${long}\ud800` },
      { a: `${long}\udc00` },
    ]
    const digests = new Set(variants.map((v) => canonicalDigest(v)))
    assert.equal(digests.size, variants.length)
  })
})
