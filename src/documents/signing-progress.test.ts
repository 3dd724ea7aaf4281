import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decodeProgress, encodeProgress, mergeProgress } from './signing-progress.ts'

const PNG = `data:image/png;base64,${Buffer.from('89504e470d0a1a0a', 'hex').toString('base64')}AAAA`

describe('a signer’s progress as stored', () => {
  it('merges changes: a value replaces, a null removes, the others stay', () => {
    const merged = mergeProgress(
      { Name: 'Ann', Date: '2026-11-28' },
      { Name: null, Amount: 12.5, Agree: false },
    )
    assert.deepEqual(merged, { Date: '2026-11-28', Amount: 12.5, Agree: false })
  })

  it('keeps an image used by several fields once, and gives every field its image back', () => {
    const values = { Signature: PNG, 'Signature 2': PNG, Name: 'Ann', Agree: true, Amount: 0 }
    const encoded = encodeProgress(values)
    assert.equal(encoded.split(PNG).length - 1, 1)
    assert.deepEqual(decodeProgress(encoded), values)
  })

  it('field names that Object.prototype has are plain keys', () => {
    const values = mergeProgress({}, { constructor: 'x', toString: 'y', hasOwnProperty: PNG })
    assert.deepEqual(decodeProgress(encodeProgress(values)), values)
    assert.equal(Object.getPrototypeOf(decodeProgress(encodeProgress(values))), Object.prototype)
  })
})
