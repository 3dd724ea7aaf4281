import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { PageSizes, PDFDict, PDFDocument, PDFName, PDFString } from 'pdf-lib'
import { inkCount, nonWhiteInRing, pixelBox } from '../../../test/fixtures/ink.ts'
import { a4, hundredPages, pdfOfPages } from '../../../test/fixtures/pdfs.ts'
import { cornerMarkPng } from '../../../test/fixtures/png.ts'
import { pdfText, qpdfCheck, rasterize } from '../../../test/fixtures/poppler.ts'
import { buildFinalPdf, type DocumentStamp } from './final-pdf.ts'
import { visiblePage } from './page-space.ts'

const SUBMISSION = 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE'
const AREA = { x: 0.1, y: 0.2, w: 0.5, h: 0.08 }
const signature = cornerMarkPng(240, 80)

const twoPagesRotated = () =>
  pdfOfPages([
    { size: PageSizes.Letter, rotate: 90 },
    { size: PageSizes.A4, cropBox: [40, 40, 500, 800] },
  ])

describe('buildFinalPdf', () => {
  it('puts every page of every document in order, each stamp on its own document page', async () => {
    const documents = [await a4(), await twoPagesRotated()]
    const stamps: DocumentStamp[] = [
      { document: 1, page: 2, area: AREA, value: { kind: 'text', text: 'Second document, page 2' } },
      { document: 0, page: 1, area: AREA, value: { kind: 'image', png: signature } },
      { document: 1, page: 1, area: AREA, value: { kind: 'check', checked: true } },
    ]
    const { bytes: out } = await buildFinalPdf({ documents, stamps, submissionId: SUBMISSION })
    const doc = await PDFDocument.load(out)
    const boxes = doc.getPages().map((page) => visiblePage(page))
    assert.deepEqual(
      boxes.map((b) => [b.rotation, Math.round(b.width), Math.round(b.height)]),
      [
        [0, 595, 842],
        [90, 792, 612],
        [0, 460, 760],
      ],
      'pages keep their boxes and rotation',
    )
    for (const page of [1, 2, 3]) {
      const raster = await rasterize(out, page)
      const box = pixelBox(raster, AREA)
      assert.ok(inkCount(raster, box) > 20, `page ${page}: stamped`)
      assert.equal(nonWhiteInRing(raster, box), 0, `page ${page}: only inside the area`)
    }
    const pages = (await pdfText(out)).split('\f')
    assert.match(pages[2]!, /Second document, page 2/)
    for (const [i, text] of pages.slice(0, 3).entries()) {
      assert.match(text, new RegExp(`${SUBMISSION} · page ${i + 1} of 3`))
    }
    await qpdfCheck(out)
  })

  it('finishes 100 pages of 5 MB with a footer on each', async () => {
    const { bytes: out } = await buildFinalPdf({
      documents: [await hundredPages()],
      stamps: [{ document: 0, page: 100, area: AREA, value: { kind: 'text', text: 'Last page' } }],
      submissionId: SUBMISSION,
    })
    assert.equal((await PDFDocument.load(out)).getPageCount(), 100)
    assert.match(await pdfText(out, { page: 100 }), /Last page[\s\S]*page 100 of 100/)
    assert.match(await pdfText(out, { page: 37 }), /\(SES\)[\s\S]*page 37 of 100/)
    await qpdfCheck(out)
    // The footer's common part is one form drawn by every page, not written a hundred times.
    const doc = new mupdf.PDFDocument(out)
    try {
      const forms = new Set<number>()
      for (let i = 0; i < 100; i++) {
        const overlay = doc.findPage(i).get('Resources').get('XObject').get('ParaphOverlay')
        overlay
          .get('Resources')
          .get('XObject')
          .forEach((value, key) => {
            if (String(key).startsWith('ParaphText')) forms.add(value.asIndirect())
          })
      }
      assert.equal(forms.size, 1)
    } finally {
      doc.destroy()
    }
  })

  it('signs the original: its bytes are the prefix, its catalog, title and form stay (fields read-only), its scripts go', async () => {
    const source = await PDFDocument.load(await a4())
    const { context, catalog } = source
    const script = context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') })
    catalog.set(PDFName.of('OpenAction'), context.register(script))
    catalog.set(PDFName.of('Names'), context.obj({ JavaScript: context.obj({ Names: ['x', script] }) }))
    catalog.set(PDFName.of('Lang'), PDFString.of('fr-CH'))
    source.getForm().createTextField('source.field').addToPage(source.getPage(0), { x: 50, y: 600 })
    source.setTitle('Lease agreement')
    const original = await source.save()
    const { bytes } = await buildFinalPdf({ documents: [original], stamps: [], submissionId: SUBMISSION })
    assert.ok(Buffer.from(bytes.subarray(0, original.length)).equals(original), 'the original is the prefix')
    const out = await PDFDocument.load(bytes, { updateMetadata: false })
    const keys = out.catalog.keys().map((key) => key.decodeText())
    assert.deepEqual(keys.sort(), ['AcroForm', 'Lang', 'Names', 'Pages', 'Type'])
    const names = out.catalog.lookup(PDFName.of('Names'), PDFDict)
    assert.equal(names.has(PDFName.of('JavaScript')), false, 'document scripts are removed')
    assert.equal(out.getTitle(), 'Lease agreement', 'the title of the document stays')
    const [field] = out.getForm().getFields()
    assert.equal(field?.getName(), 'source.field')
    assert.equal(field?.isReadOnly(), true)
    await qpdfCheck(bytes)
  })

  it('refuses a stamp on a document or page that does not exist, naming it', async () => {
    const value = { kind: 'check', checked: true } as const
    const build = async (stamp: DocumentStamp) =>
      buildFinalPdf({ documents: [await a4()], stamps: [stamp], submissionId: SUBMISSION })
    await assert.rejects(
      build({ document: 1, page: 1, area: AREA, value }),
      /document 1, but the submission has 1/,
    )
    await assert.rejects(
      build({ document: 0, page: 2, area: AREA, value }),
      /page 2 of document 0, which has 1/,
    )
  })
})
