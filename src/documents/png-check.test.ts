import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ihdr, PNG_SIGNATURE, pngChunk, pngOf, strokePng } from '../../test/fixtures/png.ts'
import { checkPng } from './png-check.ts'

const refuses = (bytes: Buffer, pattern: RegExp) => assert.rejects(checkPng(bytes), pattern)

describe('checkPng', () => {
  it('accepts well-formed PNGs and reads their size: RGBA, grey, palette, 16-bit, interlaced', async () => {
    assert.deepEqual(await checkPng(strokePng(120, 40)), { width: 120, height: 40 })
    assert.deepEqual(await checkPng(pngOf(ihdr(3, 2, 8, 0), Buffer.alloc(2 * 4))), { width: 3, height: 2 })
    const palette = pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]))
    assert.deepEqual(await checkPng(pngOf(ihdr(9, 1, 1, 3), Buffer.alloc(1 + 2), [palette])), {
      width: 9,
      height: 1,
    })
    assert.deepEqual(await checkPng(pngOf(ihdr(2, 2, 16, 2), Buffer.alloc(2 * (1 + 12)))), {
      width: 2,
      height: 2,
    })
    // Adam7: a 3 × 3 RGBA image has passes 1 (1×1), 4 (1×1: x=2), 5 (2×1: y=2), 6 (1×2: x=1), 7 (3×1: y=1)
    const interlaced = 1 + 4 + (1 + 4) + (1 + 8) + 2 * (1 + 4) + (1 + 12)
    assert.deepEqual(await checkPng(pngOf(ihdr(3, 3, 8, 6, 1), Buffer.alloc(interlaced))), {
      width: 3,
      height: 3,
    })
  })

  it('refuses what is not a PNG, or is damaged or truncated', async () => {
    await refuses(Buffer.from('GIF89a...'), /is not a PNG image/)
    const good = strokePng(10, 10)
    const flipped = Buffer.from(good)
    flipped[40] = flipped[40]! ^ 0xff
    await refuses(flipped, /checksum/)
    await refuses(good.subarray(0, good.length - 12), /truncated/)
    await refuses(Buffer.concat([PNG_SIGNATURE, pngChunk('IEND', Buffer.alloc(0))]), /without a valid header/)
    await refuses(
      Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), pngChunk('IEND', Buffer.alloc(0))]),
      /without image data/,
    )
    await refuses(pngOf(ihdr(4, 1, 8, 3), Buffer.alloc(5)), /palette PNG without a palette/)
    await refuses(pngOf(ihdr(4, 1, 7, 6), Buffer.alloc(5)), /invalid PNG header/)
  })

  it('refuses images over 4000 pixels a side, or of no pixels', async () => {
    await refuses(pngOf(ihdr(4001, 1), Buffer.alloc(1 + 4001 * 4)), /4001 × 1 pixels; at most 4000 × 4000/)
    await refuses(pngOf(ihdr(0, 5), Buffer.alloc(0)), /empty image/)
  })

  it('refuses a PNG that lies about its size: more data than the header says (a bomb), or less', async () => {
    const bomb = pngOf(ihdr(1, 1), Buffer.alloc(50 * 1024 * 1024))
    assert.ok(bomb.length < 100_000, 'fifty megabytes of zeros compress to a small file')
    await refuses(bomb, /lies about its size: its header says 1 × 1 pixels, its data holds more/)
    await refuses(pngOf(ihdr(100, 100), Buffer.alloc(10)), /its data holds less/)
  })
})
