// The merge followed by what the finalizer does to the merged document (main's final-pdf.ts steps:
// overlay of values and footers, fields made read-only, PAdES seal in the same incremental save),
// so the merge is known to compose with them before final-pdf.ts calls it.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { formPdf, textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { pdfWithOutlines } from '../../../test/fixtures/pdf-features.ts'
import { assertClean, pageTexts } from '../../../test/merge-checks.ts'
import { formFields, outlineTitles, pdfsig } from '../../../test/pdf-checks.ts'
import { sesFooter } from '../final/footer.ts'
import { graftOverlay } from '../final/graft-overlay.ts'
import { drawOverlay } from '../final/overlay.ts'
import { openPdf, rawPage } from '../read/mupdf-open.ts'
import { makeFieldsReadOnly } from '../read/original-facts.ts'
import { sealDocument } from '../seal/seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from '../seal/signing-certificate.ts'
import { mergeDocuments } from './merge-documents.ts'

describe('a merged document through the finalizer’s steps', () => {
  let dir: string
  let identity: SealingIdentity
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-merge-finalize-'))
    identity = await loadSigningCertificate({ dataDir: dir })
  })
  after(() => rm(dir, { recursive: true, force: true }))

  it('values and footers drawn, fields read-only, sealed: the seal covers all, the first document is the prefix', async () => {
    const first = await pdfWithOutlines()
    const inputs = [
      { name: 'contract.pdf', bytes: first },
      {
        name: 'form.pdf',
        bytes: await formPdf('Bravo', { name: 'Bob', agree: true, choice: 'red', city: 'Rome' }),
      },
      { name: 'annex.pdf', bytes: textPdf('Charlie', 1) },
    ]
    const [base, ...others] = inputs.map(({ name, bytes }) => ({ name, doc: openPdf(bytes).doc }))
    const { offsets } = mergeDocuments(base!, others)
    for (const other of others) other.doc.destroy()
    const doc = base!.doc
    const pages = Array.from({ length: doc.countPages() }, (_, i) => rawPage(doc.findPage(i)))
    const area = { x: 0.1, y: 0.5, w: 0.6, h: 0.05 }
    const overlay = await drawOverlay({
      pages,
      stamps: [{ page: offsets[2]! + 1, area, value: { kind: 'text', text: 'Stamped on the annex' } }],
      footer: sesFooter('sub_merge'),
    })
    graftOverlay(doc, overlay, 'content')
    makeFieldsReadOnly(doc)
    const sealed = new Uint8Array(
      await sealDocument(doc, identity, { signedAt: new Date('2026-01-16T10:00:00Z') }),
    )
    doc.destroy()

    assert.ok(
      Buffer.from(sealed.subarray(0, first.length)).equals(Buffer.from(first)),
      'the first document is the prefix',
    )
    const signatures = (await pdfsig(sealed)).filter((signature) => signature.signed)
    assert.equal(signatures.length, 1)
    assert.ok(signatures[0]!.valid && signatures[0]!.totalDocumentSigned, signatures[0]!.raw)
    await assertClean(sealed)
    const texts = await pageTexts(sealed)
    assert.equal(texts.length, 6)
    assert.match(texts[5]!, /Charlie page 1[\s\S]*Stamped on the annex/)
    assert.match(texts[3]!, /sub_merge/, 'the footer on a merged page')
    const fields = (await formFields(sealed)).filter((field) => field.name.startsWith('form.'))
    assert.equal(fields.length, 4)
    assert.ok(
      fields.every((field) => field.readOnly),
      'the later document’s fields made read-only too',
    )
    assert.deepEqual(
      (await outlineTitles(sealed)).filter((title) => title.endsWith('.pdf')),
      ['contract.pdf', 'form.pdf', 'annex.pdf'],
    )
  })
})
