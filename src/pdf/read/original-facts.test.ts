import assert from 'node:assert/strict'
import { performance } from 'node:perf_hooks'
import { describe, it } from 'node:test'
import type * as mupdf from 'mupdf'
import { rawPdf } from '../../../test/fixtures/raw-pdf.ts'
import { openPdf } from './mupdf-open.ts'
import { quietMupdf } from './mupdf-quiet.ts'
import { certificationLevel, earlierSignatures } from './original-facts.ts'

quietMupdf()

// Hand-written structure only: what is read here is the catalog and the form, not the signatures'
// bytes, so no signature needs to be valid (test/fixtures/pdf-features.ts has valid ones).
function read<T>(catalogEntries: string, more: string[], what: (doc: mupdf.PDFDocument) => T): T {
  const { doc } = openPdf(
    rawPdf([
      `<< /Type /Catalog /Pages 2 0 R ${catalogEntries} >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
      ...more,
    ]),
  )
  try {
    return what(doc)
  } finally {
    doc.destroy()
  }
}

/** Object 4 is the certification signature; `params` goes in its DocMDP /TransformParams. */
const certified = (params: string) =>
  read(
    '/Perms << /DocMDP 4 0 R >>',
    [
      `<< /Type /Sig /Reference [<< /Type /SigRef /TransformMethod /FieldMDP >> << /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams ${params} /V /1.2 >> >>] >>`,
    ],
    certificationLevel,
  )

describe('certificationLevel (ISO 32000-1 §12.8.2.2)', () => {
  it('reads /P 1, 2 and 3 of the DocMDP transform, after other transforms', () => {
    assert.equal(certified('/P 1'), 1)
    assert.equal(certified('/P 2'), 2)
    assert.equal(certified('/P 3'), 3)
  })

  it('takes a missing /P, or one outside 1–3, as the default 2 (table 254)', () => {
    assert.equal(certified(''), 2)
    assert.equal(certified('/P 7'), 2)
    assert.equal(certified('/P /One'), 2)
  })

  it('follows an indirect reference dictionary and /P', () => {
    const level = read(
      '/Perms << /DocMDP 4 0 R >>',
      [
        '<< /Type /Sig /Reference [5 0 R] >>',
        '<< /TransformMethod /DocMDP /TransformParams << /P 6 0 R >> >>',
        '1',
      ],
      certificationLevel,
    )
    assert.equal(level, 1)
  })

  it('is undefined for a document without /Perms /DocMDP, or with one that is not a dictionary', () => {
    assert.equal(read('', [], certificationLevel), undefined)
    assert.equal(read('/Perms << /UR3 4 0 R >>', ['<< /Type /Sig >>'], certificationLevel), undefined)
    assert.equal(read('/Perms << /DocMDP 42 >>', [], certificationLevel), undefined)
  })
})

describe('earlierSignatures', () => {
  const sigValue =
    '<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M (D:20260115103000Z) >>'
  const fieldsOf = (doc: mupdf.PDFDocument) => earlierSignatures(doc).map((signature) => signature.field)

  it('lists /Sig fields with a signature value by full name, not empty ones nor other fields', () => {
    const fields = read(
      '/AcroForm << /Fields [4 0 R 5 0 R 6 0 R 7 0 R] >>',
      [
        `<< /FT /Sig /T (Earlier) /V ${sigValue} /Subtype /Widget /Rect [0 0 0 0] >>`,
        '<< /FT /Sig /T (Empty) /Subtype /Widget /Rect [0 0 0 0] >>',
        '<< /FT /Tx /T (Name) /V (Alice) >>',
        // /FT inherited from the parent field; the value on the terminal field.
        '<< /FT /Sig /T (Group) /Kids [8 0 R] >>',
        `<< /T (Second) /Parent 7 0 R /V ${sigValue} >>`,
      ],
      fieldsOf,
    )
    assert.deepEqual(fields, ['Earlier', 'Group.Second'])
  })

  it('reads the signing time and format of each', () => {
    const [signature] = read(
      '/AcroForm << /Fields [4 0 R] >>',
      [`<< /FT /Sig /T (Earlier) /V ${sigValue} >>`],
      earlierSignatures,
    )
    assert.deepEqual(signature, {
      field: 'Earlier',
      name: null,
      signed_at: '2026-01-15T10:30:00.000Z',
      format: 'ETSI.CAdES.detached',
    })
  })

  it('is empty without a form, and ends on a field tree that loops', () => {
    assert.deepEqual(read('', [], fieldsOf), [])
    const fields = read(
      '/AcroForm << /Fields [4 0 R 6 0 R] >>',
      [
        '<< /FT /Sig /T (Loop) /Kids [5 0 R] >>',
        `<< /T (Inner) /Parent 4 0 R /V ${sigValue} /Kids [4 0 R 5 0 R] >>`,
        `<< /FT /Sig /T (Plain) /V ${sigValue} >>`,
      ],
      fieldsOf,
    )
    assert.deepEqual(fields, ['Plain'])
  })
})

describe('a forged form of many fields', () => {
  it('stops reading after 20 000 fields, at once', () => {
    const field = '<< /FT /Sig /T (s) /V << /Type /Sig /Name (x) >> >>'
    const fields = `[${Array.from({ length: 100_000 }, () => field).join(' ')}]`
    const started = performance.now()
    const found = read(`/AcroForm << /Fields ${fields} >>`, [], earlierSignatures)
    assert.equal(found.length, 20_000)
    assert.ok(performance.now() - started < 5_000, 'bounded work')
  })
})
