// The checks tell one answer from another (pdf-features.test.ts shows them saying yes).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { pdfWithForm, pdfWithOutlines, taggedPdf } from './fixtures/pdf-features.ts'
import { rawPdf } from './fixtures/raw-pdf.ts'
import {
  attachmentNames,
  catalogKeys,
  formFields,
  orphanWidgets,
  outlineTitles,
  pageLabels,
  pdfsig,
  pdftotext,
  qpdfCheck,
  ToolError,
} from './pdf-checks.ts'

/** A page with a signature field nobody has signed. */
const unsignedField = () =>
  rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
    '<< /FT /Sig /T (Sig1) /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /P 3 0 R >>',
  ])

describe('pdf-checks', () => {
  it('pdfsig: [] for a file without signatures, signed false for an empty signature field', async () => {
    assert.deepEqual(await pdfsig(await taggedPdf()), [])
    const [field, ...others] = await pdfsig(unsignedField())
    assert.equal(others.length, 0)
    assert.deepEqual(
      { ...field, raw: undefined },
      {
        index: 1,
        fieldName: 'Sig1',
        signed: false,
        valid: false,
        totalDocumentSigned: false,
        signedRanges: [],
        raw: undefined,
      },
    )
  })

  it('formFields, outlineTitles, attachmentNames, pageLabels: empty for a file without them', async () => {
    const pdf = await taggedPdf()
    assert.deepEqual(await formFields(pdf), [])
    assert.deepEqual(await outlineTitles(pdf), [])
    assert.deepEqual(await attachmentNames(pdf), [])
    assert.deepEqual(await pageLabels(pdf), [])
  })

  it('formFields lists a signature field with its type and no value', async () => {
    assert.deepEqual(await formFields(unsignedField()), [
      { name: 'Sig1', type: 'signature', value: null, readOnly: false, pages: [1] },
    ])
  })

  it('formFields leaves out a widget /AcroForm does not reach; orphanWidgets counts it', async () => {
    const orphan = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
      '<< /FT /Tx /T (lost) /V (value) /Type /Annot /Subtype /Widget /Rect [10 10 100 30] /P 3 0 R >>',
    ])
    assert.deepEqual(await formFields(orphan), [])
    assert.equal(await orphanWidgets(orphan), 1)
    assert.equal(await orphanWidgets(await pdfWithForm()), 0)
  })

  it('catalogKeys: only the keys the catalog has', async () => {
    assert.deepEqual([...(await catalogKeys(await pdfWithForm()))].sort(), ['AcroForm', 'Pages', 'Type'])
  })

  it('pdftotext reads the pages asked for only', async () => {
    const pdf = await pdfWithOutlines()
    assert.equal((await pdftotext(pdf, { firstPage: 2, lastPage: 2 })).trim(), 'Article 1 page')
    assert.match(await pdftotext(pdf), /Preamble page[\s\S]*Article 1 page[\s\S]*Article 1\.2 page/)
  })

  it('qpdfCheck: code 2 for what qpdf cannot open; other checks throw a ToolError with its output', async () => {
    const garbage = Buffer.from('%PDF-1.7\nnothing else')
    assert.equal((await qpdfCheck(garbage)).code, 2)
    await assert.rejects(catalogKeys(garbage), (error: unknown) => {
      assert.ok(error instanceof ToolError)
      assert.equal(error.command, 'qpdf')
      assert.match(error.output, /unable to find trailer dictionary/)
      return true
    })
  })
})
