import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { assertClean, merge } from '../../../test/merge-checks.ts'
import { pdftotext } from '../../../test/pdf-checks.ts'

describe('mergeDocuments: layers', () => {
  it('each document’s layers keep their default states, hidden stays hidden, listed under its name', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1, { layers: [{ name: 'Base', hidden: false }] }) },
      {
        name: 'b.pdf',
        bytes: textPdf('Bravo', 1, {
          layers: [
            { name: 'Draft', hidden: true },
            { name: 'Final', hidden: false },
          ],
        }),
      },
      {
        name: 'c.pdf',
        bytes: textPdf('Charlie', 1, {
          baseStateOff: true,
          layers: [
            { name: 'Shown', hidden: false },
            { name: 'Secret', hidden: true },
          ],
        }),
      },
    ])
    assert.deepEqual(notes, [])
    const text = await pdftotext(merged)
    for (const shown of ['Base', 'Final', 'Shown']) assert.match(text, new RegExp(`${shown} layer text`))
    for (const hidden of ['Draft', 'Secret']) assert.doesNotMatch(text, new RegExp(`${hidden} layer text`))
    const config = new mupdf.PDFDocument(merged).getTrailer().get('Root').get('OCProperties', 'D')
    const order = config.get('Order')
    assert.deepEqual(
      [order.get(1, 0).asString(), order.get(2, 0).asString()],
      ['b.pdf', 'c.pdf'],
      'the layer panel lists each later document’s layers under its name',
    )
    await assertClean(merged)
  })
})
