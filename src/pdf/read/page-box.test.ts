import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { normalizeRotation, pageBox, type Rect, visibleBox } from './page-box.ts'

const A4: Rect = [0, 0, 595.28, 841.89]

describe('normalizeRotation', () => {
  it('keeps 0, 90, 180 and 270', () => {
    for (const r of [0, 90, 180, 270] as const) assert.equal(normalizeRotation(r), r)
  })

  it('folds negative values and full turns into 0..270', () => {
    assert.equal(normalizeRotation(-90), 270)
    assert.equal(normalizeRotation(-180), 180)
    assert.equal(normalizeRotation(-360), 0)
    assert.equal(normalizeRotation(360), 0)
    assert.equal(normalizeRotation(450), 90)
    assert.equal(normalizeRotation(-630), 90)
  })

  it('ignores a missing value, values off the 90° grid and non-numbers', () => {
    assert.equal(normalizeRotation(undefined), 0)
    assert.equal(normalizeRotation(45), 0)
    assert.equal(normalizeRotation(91), 0)
    assert.equal(normalizeRotation(Number.NaN), 0)
    assert.equal(normalizeRotation(Number.POSITIVE_INFINITY), 0)
  })
})

describe('visibleBox', () => {
  it('is the MediaBox when there is no CropBox', () => {
    assert.deepEqual(visibleBox(A4), A4)
  })

  it('is the CropBox when it lies inside the MediaBox', () => {
    assert.deepEqual(visibleBox(A4, [50, 50, 545, 792]), [50, 50, 545, 792])
  })

  it('clips a CropBox reaching beyond the MediaBox', () => {
    assert.deepEqual(visibleBox(A4, [-10, 100, 700, 2000]), [0, 100, 595.28, 841.89])
  })

  it('falls back to the MediaBox when the CropBox misses it or has no area', () => {
    assert.deepEqual(visibleBox(A4, [1000, 1000, 1200, 1200]), A4)
    assert.deepEqual(visibleBox(A4, [100, 100, 100, 500]), A4)
  })

  it('accepts corners in any order, as files may write them', () => {
    assert.deepEqual(visibleBox([612, 792, 0, 0]), [0, 0, 612, 792])
    assert.deepEqual(visibleBox(A4, [545, 792, 50, 50]), [50, 50, 545, 792])
  })

  it('keeps a MediaBox that does not start at the origin', () => {
    assert.deepEqual(visibleBox([100, 200, 712, 992]), [100, 200, 712, 992])
  })
})

describe('pageBox', () => {
  it('gives the MediaBox size for an unrotated page', () => {
    assert.deepEqual(pageBox(A4), { box: A4, rotation: 0, width: 595.28, height: 841.89 })
  })

  it('swaps width and height for 90 and 270, not for 180', () => {
    assert.deepEqual([pageBox(A4, undefined, 90).width, pageBox(A4, undefined, 90).height], [841.89, 595.28])
    assert.deepEqual(
      [pageBox(A4, undefined, -90).width, pageBox(A4, undefined, -90).height],
      [841.89, 595.28],
    )
    assert.deepEqual(
      [pageBox(A4, undefined, 180).width, pageBox(A4, undefined, 180).height],
      [595.28, 841.89],
    )
  })

  it('measures the cropped region, rotated', () => {
    const page = pageBox(A4, [50, 50, 545, 792], 270)
    assert.deepEqual(page, { box: [50, 50, 545, 792], rotation: 270, width: 742, height: 495 })
  })

  it('measures a MediaBox offset from the origin by its extent, not its corner', () => {
    const page = pageBox([100, 200, 712, 992])
    assert.equal(page.width, 612)
    assert.equal(page.height, 792)
  })
})
