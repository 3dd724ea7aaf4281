import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { pageBox } from '../read/page-box.ts'
import { areaInView, type Matrix, viewMatrix } from './page-space.ts'

const apply = ([a, b, c, d, e, f]: Matrix, [x, y]: [number, number]) => [a * x + c * y + e, b * x + d * y + f]

describe('viewMatrix', () => {
  // The visible box [50 80 450 680]: 400 wide, 600 high in user space.
  const box = [50, 80, 450, 680] as const

  it('maps the top-left corner of the page as displayed to the right user-space corner', () => {
    // ISO 32000-1 §7.7.3.3: /Rotate turns the page clockwise when shown. The displayed top-left
    // is the user-space top-left at 0, bottom-left at 90, bottom-right at 180, top-right at 270.
    const expected = { 0: [50, 680], 90: [50, 80], 180: [450, 80], 270: [450, 680] } as const
    for (const rotate of [0, 90, 180, 270] as const) {
      const view = pageBox(box, undefined, rotate)
      assert.deepEqual(apply(viewMatrix(view), [0, view.height]), expected[rotate], `rotate ${rotate}`)
    }
  })

  it('maps the displayed page onto the visible box exactly', () => {
    for (const rotate of [0, 90, 180, 270, -90, 450]) {
      const view = pageBox(box, undefined, rotate)
      const m = viewMatrix(view)
      const corners = [
        [0, 0],
        [view.width, 0],
        [0, view.height],
        [view.width, view.height],
      ].map((p) => apply(m, p as [number, number]))
      const xs = corners.map(([x]) => x!)
      const ys = corners.map(([, y]) => y!)
      assert.deepEqual([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], [...box])
    }
  })
})

describe('areaInView', () => {
  it('flips y: an area at the top of the page is high in view space', () => {
    const view = pageBox([0, 0, 600, 800], undefined, 90)
    assert.deepEqual(areaInView({ x: 0.1, y: 0, w: 0.5, h: 0.25 }, view), {
      x: 80,
      y: 450,
      width: 400,
      height: 150,
    })
  })
})
