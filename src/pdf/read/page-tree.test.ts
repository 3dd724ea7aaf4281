import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { rawPdf } from '../../../test/fixtures/raw-pdf.ts'
import { openPdf } from './mupdf-open.ts'
import { quietMupdf } from './mupdf-quiet.ts'
import { MAX_PAGES, type PageTree, PageTreeError, readPageTree } from './page-tree.ts'

quietMupdf()

// Small hand-written files, so MuPDF may open them in this process.
function treeOf(objects: string[]): PageTree {
  const { doc } = openPdf(rawPdf(objects))
  try {
    return readPageTree(doc)
  } finally {
    doc.destroy()
  }
}

const catalog = '<< /Type /Catalog /Pages 2 0 R >>'
const page = (box = '[0 0 612 792]') => `<< /Type /Page /Parent 2 0 R /MediaBox ${box} >>`
/** A root listing objects 3, 4, … as its kids, with a /Count of `count`. */
const root = (kids: number, count = kids) =>
  `<< /Type /Pages /Kids [${Array.from({ length: kids }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${count} >>`

const refusedWith = (cause: RegExp) => (error: unknown) => {
  assert.ok(error instanceof PageTreeError, String(error))
  assert.match(error.message, cause)
  return true
}

describe('readPageTree', () => {
  it('lists pages in document order, with the boxes inherited from their ancestors', () => {
    const tree = treeOf([
      catalog,
      '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 /MediaBox [0 0 612 792] /CropBox [0 0 300 300] /Rotate 90 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R] /Count 1 /Rotate 6 0 R >>',
      '<< /Type /Page /Parent 3 0 R >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>',
      '180',
    ])
    assert.deepEqual(tree, {
      ok: true,
      pages: [
        { mediaBox: [0, 0, 612, 792], cropBox: [0, 0, 300, 300], rotate: 180 },
        { mediaBox: [0, 0, 100, 100], cropBox: [0, 0, 300, 300], rotate: 90 },
      ],
    })
  })

  it('reads nodes and pages without /Type by whether they have /Kids', () => {
    const tree = treeOf([catalog, '<< /Kids [3 0 R] /Count 1 >>', '<< /MediaBox [0 0 10 20] >>'])
    assert.deepEqual(tree, { ok: true, pages: [{ mediaBox: [0, 0, 10, 20] }] })
  })

  it('ignores a malformed CropBox and /Rotate, and reads a page without a valid MediaBox as US Letter', () => {
    const tree = treeOf([
      catalog,
      root(2),
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 20] /CropBox [0 0 5] /Rotate /Ninety >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 /x] >>',
    ])
    assert.deepEqual(tree, {
      ok: true,
      pages: [{ mediaBox: [0, 0, 10, 20] }, { mediaBox: [0, 0, 612, 792] }],
    })
  })

  it('reads a tree whose root is a Page as that one page (openPdf puts it under a Pages node)', () => {
    const { doc, repaired } = openPdf(rawPdf([catalog, '<< /Type /Page /MediaBox [0 0 300 400] >>']))
    assert.deepEqual(readPageTree(doc), { ok: true, pages: [{ mediaBox: [0, 0, 300, 400] }] })
    assert.equal(repaired, true)
    doc.destroy()
  })

  it('refuses a tree listing a page twice, naming both places', () => {
    assert.throws(
      () => treeOf([catalog, '<< /Type /Pages /Kids [3 0 R 4 0 R 3 0 R] /Count 3 >>', page(), page()]),
      refusedWith(/^its page tree lists the same page twice \(pages 1 and 3\)$/),
    )
  })

  it('refuses a tree listing an object that is not a page, and a file without pages', () => {
    assert.throws(() => treeOf([catalog, root(1), '42']), refusedWith(/not a page/))
    assert.throws(() => treeOf([catalog, '<< /Type /Pages /Kids [] /Count 0 >>']), refusedWith(/no pages/))
    assert.throws(() => treeOf(['<< /Type /Catalog >>']), refusedWith(/no pages/))
  })

  it('lets MuPDF refuse a cycle and a /Count the tree does not hold', () => {
    const cycle = [catalog, '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>', page(), root(0, 1)]
    cycle[3] = '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>'
    assert.throws(() => treeOf(cycle), /cycle in page tree/)
    assert.throws(() => treeOf([catalog, root(1, 3), page()]), /cannot find page 2/)
  })

  it('counts pages past the limit from /Count alone, without looking any page up', () => {
    assert.deepEqual(treeOf([catalog, root(MAX_PAGES + 1), ...Array(MAX_PAGES + 1).fill(page())]), {
      ok: false,
      pageCount: MAX_PAGES + 1,
    })
    // One page behind a /Count of 5000: a lookup of page 2 would throw, as above. (MuPDF itself
    // refuses a /Count past the number of objects, so 5000 filler objects keep it believable.)
    assert.deepEqual(treeOf([catalog, root(1, 5000), page(), ...Array(5000).fill('0')]), {
      ok: false,
      pageCount: 5000,
    })
    assert.throws(() => treeOf([catalog, root(1, 5000), page()]), /invalid number of pages/i)
  })
})
