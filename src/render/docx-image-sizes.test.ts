import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { markImageSizes, readImageMark } from './docx-image-sizes.ts'

const drawing = (docPr: string, cx = 914400, cy = 457200) =>
  `<w:drawing><wp:inline><wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0"/>${docPr}<a:graphic/></wp:inline></w:drawing>`

describe('markImageSizes', () => {
  it("writes each drawing's extent in front of its alternative text", () => {
    const xml = `<w:p>${drawing('<wp:docPr id="1" name="a" descr="Logo"/>')}${drawing('<wp:docPr id="2" name="b"/>', 9525, 19050)}</w:p>`
    assert.equal(
      markImageSizes(xml),
      `<w:p>${drawing('<wp:docPr id="1" name="a" descr="[[paraph-size:914400x457200]]Logo"/>')}${drawing('<wp:docPr descr="[[paraph-size:9525x19050]]" id="2" name="b"/>', 9525, 19050)}</w:p>`,
    )
  })

  it('keeps a title mammoth would have used for a blank descr', () => {
    assert.match(
      markImageSizes(drawing('<wp:docPr id="1" title="Seal"/>')),
      /descr="\[\[paraph-size:914400x457200\]\]Seal"/,
    )
  })

  it('leaves alone what it cannot read safely: single quotes, an extent without a docPr before the next', () => {
    const quoted = drawing(`<wp:docPr id="1" descr='x'/>`)
    assert.equal(markImageSizes(quoted), quoted)
    const orphan = '<wp:extent cx="1" cy="1"/><wp:extent cx="2" cy="2"/><wp:docPr id="1"/>'
    assert.equal(
      markImageSizes(orphan),
      '<wp:extent cx="1" cy="1"/><wp:extent cx="2" cy="2"/><wp:docPr descr="[[paraph-size:2x2]]" id="1"/>',
    )
    assert.equal(markImageSizes('<w:p>no drawing</w:p>'), '<w:p>no drawing</w:p>')
  })
})

describe('readImageMark', () => {
  it('gives back the alternative text and the size in CSS pixels', () => {
    assert.deepEqual(readImageMark('[[paraph-size:914400x457200]]Logo'), {
      alt: 'Logo',
      width: 96,
      height: 48,
    })
    assert.deepEqual(readImageMark('[[paraph-size:914400x457200]]'), { alt: '', width: 96, height: 48 })
  })

  it('gives no size for unmarked text, nothing, or sizes out of reason', () => {
    assert.deepEqual(readImageMark('Logo'), { alt: 'Logo' })
    assert.deepEqual(readImageMark(undefined), { alt: '' })
    assert.deepEqual(readImageMark('[[paraph-size:0x457200]]a'), { alt: 'a' })
    assert.deepEqual(readImageMark('[[paraph-size:999999999999x1]]a'), { alt: 'a' })
  })
})
