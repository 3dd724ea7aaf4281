import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { rawPdf } from '../../test/fixtures/raw-pdf.ts'
import { MAX_PAGES, type PageTree, PageTreeError, readPageTree } from './page-tree.ts'

// Small hand-written files, so pdf-lib may load them in this process.
async function treeOf(objects: string[]): Promise<PageTree> {
  const doc = await PDFDocument.load(rawPdf(objects), { updateMetadata: false })
  return readPageTree(doc.context, doc.catalog)
}

const catalog = '<< /Type /Catalog /Pages 2 0 R >>'
const page = (box = '[0 0 612 792]') => `<< /Type /Page /MediaBox ${box} >>`
const directPages = (count: number) => `<< /Type /Pages /Kids [${page().repeat(count)}] >>`

const refusedWith = (cause: RegExp) => (error: unknown) => {
  assert.ok(error instanceof PageTreeError, String(error))
  assert.match(error.message, cause)
  return true
}

describe('readPageTree', () => {
  it('lists pages in document order, with the boxes inherited from their ancestors', async () => {
    const tree = await treeOf([
      catalog,
      '<< /Type /Pages /Kids [3 0 R 5 0 R] /MediaBox [0 0 612 792] /CropBox [0 0 300 300] /Rotate 90 >>',
      '<< /Type /Pages /Kids [4 0 R] /Rotate 6 0 R >>',
      '<< /Type /Page >>',
      '<< /Type /Page /MediaBox [0 0 100 100] >>',
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

  it('reads nodes and pages without /Type by whether they have /Kids', async () => {
    const tree = await treeOf([catalog, '<< /Kids [3 0 R] >>', '<< /MediaBox [0 0 10 20] >>'])
    assert.deepEqual(tree, { ok: true, pages: [{ mediaBox: [0, 0, 10, 20] }] })
  })

  it('ignores a malformed CropBox and /Rotate', async () => {
    const tree = await treeOf([
      catalog,
      '<< /Type /Pages /Kids [3 0 R] >>',
      '<< /Type /Page /MediaBox [0 0 10 20] /CropBox [0 0 5] /Rotate /Ninety >>',
    ])
    assert.deepEqual(tree, { ok: true, pages: [{ mediaBox: [0, 0, 10, 20] }] })
  })

  it('refuses a page without a valid MediaBox, naming it', async () => {
    const objects = [catalog, '<< /Type /Pages /Kids [3 0 R 4 0 R] >>', page(), page('[0 0 612 /x]')]
    await assert.rejects(treeOf(objects), refusedWith(/^page 2 has no valid MediaBox$/))
  })

  it('refuses a tree listing a node twice, a tree too deep, a file without pages', async () => {
    await assert.rejects(
      treeOf([catalog, '<< /Type /Pages /Kids [3 0 R 3 0 R] >>', page()]),
      refusedWith(/page tree loops back on itself/),
    )
    const chain = Array.from({ length: 80 }, (_, i) => `<< /Type /Pages /Kids [${i + 3} 0 R] >>`)
    await assert.rejects(treeOf([catalog, ...chain, page()]), refusedWith(/nested too deeply/))
    await assert.rejects(treeOf([catalog, '<< /Type /Pages /Kids [] >>']), refusedWith(/no pages/))
    await assert.rejects(treeOf(['<< /Type /Catalog >>']), refusedWith(/no page tree/))
  })

  it('counts pages past the limit without reading them, and stops counting at 100 000', async () => {
    assert.deepEqual(await treeOf([catalog, directPages(MAX_PAGES + 1)]), {
      ok: false,
      pageCount: MAX_PAGES + 1,
      capped: false,
    })
    assert.deepEqual(await treeOf([catalog, directPages(100_001)]), {
      ok: false,
      pageCount: 100_000,
      capped: true,
    })
  })
})
