import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { assertClean, merge, poppler } from '../../../test/merge-checks.ts'
import { catalogKeys } from '../../../test/pdf-checks.ts'

describe('mergeDocuments: tags', () => {
  it('a tagged document after a tagged first one: its elements in a Part bearing its name inside the first’s Document, each page’s marked content found again', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 2, { tagged: true }) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1) },
      { name: 'c.pdf', bytes: textPdf('Charlie', 2, { tagged: true }) },
    ])
    assert.deepEqual(notes, [])
    assert.deepEqual((await poppler('pdfinfo', merged, ['-struct-text'])).trim().split('\n'), [
      'Document',
      '  P (block)',
      '    "Alpha page 1"',
      '  P (block)',
      '    "Alpha page 2"',
      '  Part "c.pdf"',
      '    Document',
      '      P (block)',
      '        "Charlie page 1"',
      '      P (block)',
      '        "Charlie page 2"',
    ])
    assertParentTreeFindsEachPage(merged, [0, 1, 3, 4])
    await assertClean(merged)
  })

  it('a tagged document after an untagged first one: said in the notes, its pages untagged', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1, { tagged: true }) },
    ])
    assert.ok(!(await catalogKeys(merged)).has('StructTreeRoot'))
    assert.deepEqual(notes, [
      'document 2 (b.pdf) is tagged for accessibility; its tags could not be merged, so its pages are untagged',
    ])
    assert.ok(
      new mupdf.PDFDocument(merged).findPage(1).get('StructParents').isNull(),
      'no key into a tree not there',
    )
    await assertClean(merged)
  })
})

/**
 * The reverse lookup a screen reader makes from content to element: each tagged page's
 * /StructParents key, through the merged /ParentTree, gives for MCID 0 an element on that page.
 */
function assertParentTreeFindsEachPage(pdf: Uint8Array, taggedPages: number[]): void {
  const doc = new mupdf.PDFDocument(pdf)
  const tree = doc.getTrailer().get('Root', 'StructTreeRoot', 'ParentTree')
  const entries = new Map<number, mupdf.PDFObject>()
  const leaves = tree.get('Kids').isArray()
    ? Array.from({ length: tree.get('Kids').length }, (_, i) => tree.get('Kids', i))
    : [tree]
  for (const leaf of leaves) {
    const nums = leaf.get('Nums')
    for (let i = 0; i < nums.length; i += 2) entries.set(nums.get(i).asNumber(), nums.get(i + 1))
  }
  const keys = taggedPages.map((index) => {
    const page = doc.findPage(index)
    const key = page.get('StructParents').asNumber()
    const element = entries.get(key)?.get(0)
    assert.equal(element?.get('Pg').asIndirect(), page.asIndirect(), `page ${index + 1}: key ${key}`)
    return key
  })
  assert.equal(new Set(keys).size, keys.length, 'each page its own key')
}
