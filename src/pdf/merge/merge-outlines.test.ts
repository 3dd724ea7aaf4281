import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { loopedOutlinePdf, textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { assertClean, merge, qpdf } from '../../../test/merge-checks.ts'

interface QpdfOutline {
  title: string
  destpageposfrom1: number | null
  open: boolean
  kids: QpdfOutline[]
}

async function qpdfOutlines(pdf: Uint8Array): Promise<QpdfOutline[]> {
  return JSON.parse((await qpdf(pdf, ['--json=2', '--json-key=outlines'])).stdout).outlines
}

/** "title→page" per item, children indented, as a reader would list the bookmarks. */
function outlineShape(items: QpdfOutline[], depth = 0): string[] {
  return items.flatMap((item) => [
    `${'  '.repeat(depth)}${item.title}→${item.destpageposfrom1}`,
    ...outlineShape(item.kids, depth + 1),
  ])
}

/** Every /Count of the merged outline against the tree it sits on (ISO 32000-1 Table 153). */
function assertCountsConsistent(pdf: Uint8Array): void {
  const doc = new mupdf.PDFDocument(pdf)
  const visible = (node: mupdf.PDFObject): number => {
    let count = 0
    for (let child = node.get('First'); child.isDictionary(); child = child.get('Next')) {
      assert.equal(child.get('Parent').asIndirect(), node.asIndirect(), 'each child names its parent')
      const below = visible(child)
      const stored = child.get('Count')
      if (below > 0)
        assert.equal(Math.abs(stored.asNumber()), stored.asNumber() > 0 ? below : Math.abs(stored.asNumber()))
      count += 1 + (stored.isNumber() && stored.asNumber() > 0 ? below : 0)
    }
    return count
  }
  const root = doc.getTrailer().get('Root').get('Outlines')
  assert.equal(root.get('Count').asNumber(), visible(root))
}

describe('mergeDocuments: outlines', () => {
  it('one item per document at its first page, each document’s own two levels beneath, named destinations resolved', async () => {
    const { merged } = merge([
      {
        name: 'Contract.pdf',
        bytes: textPdf('Alpha', 3, {
          outline: [
            { title: 'A1', page: 1, kids: [{ title: 'A1.1', page: 2 }] },
            { title: 'A2', page: 3 },
          ],
        }),
      },
      {
        name: 'Annex 1.pdf',
        bytes: textPdf('Bravo', 3, {
          namedDests: { terms: 3, start: 1 },
          outline: [
            {
              title: 'B1',
              named: 'start',
              kids: [
                { title: 'B1.1', page: 2 },
                { title: 'B1.2', named: 'terms', action: true },
              ],
            },
            { title: 'B2', page: 3, closed: true, kids: [{ title: 'B2.1', page: 1 }] },
          ],
        }),
      },
      {
        name: 'Annex 2.pdf',
        bytes: textPdf('Charlie', 2, {
          namedDests: { end: 2 },
          oldStyleDests: true,
          outline: [
            {
              title: 'C1',
              named: 'end',
              kids: [{ title: 'C1.1', page: 1, kids: [{ title: 'C1.1.1', page: 2 }] }],
            },
          ],
        }),
      },
    ])
    assert.deepEqual(outlineShape(await qpdfOutlines(merged)), [
      'Contract.pdf→1',
      '  A1→1',
      '    A1.1→2',
      '  A2→3',
      'Annex 1.pdf→4',
      '  B1→4',
      '    B1.1→5',
      '    B1.2→6',
      '  B2→6',
      '    B2.1→4',
      'Annex 2.pdf→7',
      '  C1→8',
      '    C1.1→7',
      '      C1.1.1→8',
    ])
    const top = await qpdfOutlines(merged)
    assert.deepEqual(
      top[1]!.kids.map((item) => item.open),
      [true, false],
      'each item stays open or closed as its author left it',
    )
    assertCountsConsistent(merged)
    await assertClean(merged)
  })

  it('an outline is made for documents that had none, titled with their names (any script)', async () => {
    const { merged } = merge([
      { name: '契約書.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'عقد.pdf', bytes: textPdf('Bravo', 2) },
    ])
    assert.deepEqual(outlineShape(await qpdfOutlines(merged)), ['契約書.pdf→1', 'عقد.pdf→2'])
    assertCountsConsistent(merged)
    await assertClean(merged)
  })

  it('a looping outline in a later document is cut where it loops, and its counts remade', async () => {
    const { merged } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'loop.pdf', bytes: loopedOutlinePdf() },
    ])
    assert.deepEqual(outlineShape(await qpdfOutlines(merged)), [
      'a.pdf→1',
      'loop.pdf→2',
      '  one→2',
      '  two→3',
    ])
    assertCountsConsistent(merged)
    await assertClean(merged)
  })

  it('a link to a named destination of a later document lands on its grafted page', async () => {
    const { merged } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 2) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 3, { namedDests: { terms: 3 }, linkTo: 'terms' }) },
    ])
    const doc = new mupdf.PDFDocument(merged)
    const links = doc.loadPage(2).getLinks()
    assert.equal(links.length, 1)
    assert.equal(doc.resolveLink(links[0]!), 4, 'page 3 of b.pdf is page 5 (index 4) of the merged PDF')
    await assertClean(merged)
  })
})
