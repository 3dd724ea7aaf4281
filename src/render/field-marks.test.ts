// field-marks on PDFs made here with pdf-lib (Chromium's own output is covered by the renderer's
// tests): Link annotations as direct and indirect objects, with /Rect corners in any order.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFArray, PDFDocument, PDFName, PDFString } from 'pdf-lib'
import { setPageBoxes, takeFieldMarks } from './field-marks.ts'

const PREFIX = 'https://fields.paraph.invalid/abc123/'

function link(doc: PDFDocument, uri: string, rect: number[]) {
  return doc.context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: rect,
    A: { Type: 'Action', S: 'URI', URI: PDFString.of(uri) },
  })
}

async function twoPages(): Promise<PDFDocument> {
  const doc = await PDFDocument.create()
  const first = doc.addPage([594.96, 841.92])
  first.node.set(
    PDFName.of('Annots'),
    doc.context.obj([
      doc.context.register(link(doc, `${PREFIX}2`, [100, 700, 260, 748])),
      doc.context.register(link(doc, 'https://example.com/', [10, 10, 20, 20])),
    ]),
  )
  const second = doc.addPage([594.96, 841.92])
  second.node.set(PDFName.of('CropBox'), doc.context.obj([0, 0, 594.96, 841.92]))
  // Indirect /Annots array, a direct annotation, corners given top-right first.
  second.node.set(
    PDFName.of('Annots'),
    doc.context.register(doc.context.obj([link(doc, `${PREFIX}0`, [320, 140, 200, 100])])),
  )
  return doc
}

describe('field marks', () => {
  it('sets every MediaBox and existing CropBox to the exact size', async () => {
    const doc = await twoPages()
    setPageBoxes(doc, { width: 595, height: 842 })
    for (const page of doc.getPages())
      assert.deepEqual(page.getMediaBox(), { x: 0, y: 0, width: 595, height: 842 })
    assert.equal(doc.getPage(0).node.get(PDFName.of('CropBox')), undefined, 'no CropBox added')
    assert.deepEqual(doc.getPage(1).getCropBox(), { x: 0, y: 0, width: 595, height: 842 })
  })

  it('turns marker links into top-left boxes sorted by index, and removes them', async () => {
    const doc = await twoPages()
    setPageBoxes(doc, { width: 595, height: 842 })
    const marks = takeFieldMarks(doc, PREFIX)
    assert.deepEqual(marks, [
      { index: 0, page: 2, x: 200, y: 702, w: 120, h: 40 },
      { index: 2, page: 1, x: 100, y: 94, w: 160, h: 48 },
    ])
    const kept = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray)
    assert.equal(kept.size(), 1)
    assert.equal(doc.getPage(1).node.get(PDFName.of('Annots')), undefined)
    const bytes = Buffer.from(await doc.save({ useObjectStreams: false }))
    assert.equal(bytes.includes('fields.paraph.invalid'), false)
    assert.equal(bytes.includes('https://example.com/'), true)
  })

  it('removes a marker link whose index is not a number without making a mark of it', async () => {
    const doc = await PDFDocument.create()
    const page = doc.addPage([595, 842])
    page.node.set(PDFName.of('Annots'), doc.context.obj([link(doc, `${PREFIX}x1`, [0, 0, 10, 10])]))
    assert.deepEqual(takeFieldMarks(doc, PREFIX), [])
    assert.equal(page.node.get(PDFName.of('Annots')), undefined)
  })
})
