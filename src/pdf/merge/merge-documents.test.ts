import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { formPdf, textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { assertClean, encrypt, merge, pageTexts, poppler, qpdf } from '../../../test/merge-checks.ts'
import { formFields, pdfsig, pdftotext, qpdfCheck } from '../../../test/pdf-checks.ts'
import { openPdf } from '../read/mupdf-open.ts'
import { sealPdf } from '../seal/seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from '../seal/signing-certificate.ts'
import { mergeDocuments } from './merge-documents.ts'

describe('mergeDocuments: pages', () => {
  it('every page of every document, in order, and where each document starts', async () => {
    const { merged, offsets, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 2) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 3) },
      { name: 'c.pdf', bytes: textPdf('Charlie', 1) },
    ])
    assert.deepEqual(offsets, [0, 2, 5])
    assert.deepEqual(notes, [])
    assert.deepEqual(await pageTexts(merged), [
      'Alpha page 1',
      'Alpha page 2',
      'Bravo page 1',
      'Bravo page 2',
      'Bravo page 3',
      'Charlie page 1',
    ])
    await assertClean(merged)
  })

  it('a page the page tree lists twice comes in twice as two page objects', async () => {
    const { merged } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 2, { pageListedTwice: true }) },
    ])
    assert.deepEqual(await pageTexts(merged), [
      'Alpha page 1',
      'Bravo page 1',
      'Bravo page 2',
      'Bravo page 1',
    ])
    await assertClean(merged)
  })

  it('the first document is the byte prefix of the incremental save', async () => {
    const original = textPdf('Alpha', 2, { outline: [{ title: 'Intro', page: 2 }] })
    const { merged } = merge([
      { name: 'a.pdf', bytes: original },
      {
        name: 'b.pdf',
        bytes: await formPdf('Bravo', { name: 'B', agree: true, choice: 'red', city: 'Rome' }),
      },
    ])
    assert.ok(merged.length > original.length)
    assert.ok(Buffer.from(merged.subarray(0, original.length)).equals(Buffer.from(original)))
    await assertClean(merged)
  })
})

describe('mergeDocuments: a certified first document', () => {
  it('is noted: pages appended after a certification are a change it does not allow', () => {
    const { notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1, { certified: 2 }) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1) },
    ])
    assert.deepEqual(notes, [
      "document 1 (a.pdf) is certified (DocMDP P=2); adding the other documents' pages is a change its certification does not allow, so viewers report the certification as broken",
    ])
  })
})

describe('mergeDocuments: earlier signatures', () => {
  let dir: string
  let identity: SealingIdentity
  const signed = async (label: string) =>
    sealPdf(textPdf(label, 2), identity, { signedAt: new Date('2026-01-15T10:00:00Z'), name: 'Jane Signer' })

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-merge-seal-'))
    identity = await loadSigningCertificate({ dataDir: dir })
  })
  after(() => rm(dir, { recursive: true, force: true }))

  it('a signature in document 2 is said in the notes, its field kept unsigned, and the merged file is clean', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'contract.pdf', bytes: await signed('Bravo') },
    ])
    assert.equal(notes.length, 1)
    assert.match(notes[0]!, /^document 2 \(contract\.pdf\) carried a signature by Jane Signer/)
    assert.match(notes[0]!, /cannot be kept in a merged PDF/)
    assert.ok(
      (await pdfsig(merged)).every((signature) => !signature.signed),
      'no broken signature left',
    )
    const fields = (await formFields(merged)).filter((field) => field.type === 'signature')
    assert.deepEqual(
      fields.map(({ name, value, readOnly }) => ({ name, value, readOnly })),
      [{ name: 'contract.Paraph seal', value: null, readOnly: true }],
      'its field stays, unsigned and read-only',
    )
    await assertClean(merged)
    // Sealing the merged PDF afterwards gives one valid signature over the whole file.
    const sealed = await sealPdf(merged, identity, { signedAt: new Date('2026-01-16T10:00:00Z') })
    const signatures = (await pdfsig(sealed)).filter((signature) => signature.signed)
    assert.equal(signatures.length, 1)
    assert.ok(signatures[0]!.valid && signatures[0]!.totalDocumentSigned, signatures[0]!.raw)
  })

  it('a signature in the first document stays valid: the merge only appends', async () => {
    const { merged, notes } = merge([
      { name: 'contract.pdf', bytes: await signed('Alpha') },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1) },
    ])
    assert.deepEqual(notes, [])
    const [signature, ...more] = await pdfsig(merged)
    assert.equal(more.length, 0)
    assert.ok(signature!.valid, signature!.raw)
    await assertClean(merged)
  })
})

describe('mergeDocuments: what is not carried', () => {
  it('scripts of a later document are dropped; its navigation links stay', async () => {
    const original = textPdf('Alpha', 1)
    const { merged } = merge([
      { name: 'a.pdf', bytes: original },
      { name: 'b.pdf', bytes: textPdf('Bravo', 2, { scriptLink: true }) },
    ])
    const appended = Buffer.from(merged.subarray(original.length)).toString('latin1')
    assert.doesNotMatch(appended, /JavaScript|\/JS\b/)
    await assertClean(merged)
  })
})

describe('mergeDocuments: encrypted documents (empty user password)', () => {
  it('an encrypted later document is merged readable; an encrypted first document stays the prefix, its revision encrypted', async () => {
    const base = await encrypt(textPdf('Alpha', 1))
    const later = await encrypt(
      await formPdf('Bravo', { name: 'Bob', agree: true, choice: 'red', city: 'Rome' }),
    )
    const { merged } = merge([
      { name: 'a.pdf', bytes: base },
      { name: 'b.pdf', bytes: later },
    ])
    assert.ok(Buffer.from(merged.subarray(0, base.length)).equals(Buffer.from(base)))
    assert.deepEqual(await pageTexts(merged), [
      'Alpha page 1',
      'Bravo page 1\nBob\nred',
      'Bravo page 2\nRome',
    ])
    assert.deepEqual((await formFields(merged)).map((field) => `${field.name}=${field.value}`).sort(), [
      'b.address.city=Rome',
      'b.agree=Yes',
      'b.choice=red',
      'b.name=Bob',
    ])
    const check = await qpdfCheck(merged)
    assert.equal(check.code, 0, check.output)
  })
})

describe('mergeDocuments: attached files', () => {
  it('every document’s attachments are in the merged PDF, same file names apart', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1, { attachments: { 'data.txt': 'alpha data' } }) },
      {
        name: 'b.pdf',
        bytes: textPdf('Bravo', 1, { attachments: { 'data.txt': 'bravo data', 'more.txt': 'more' } }),
      },
    ])
    assert.deepEqual(notes, [])
    assert.match(await poppler('pdfdetach', merged, ['-list']), /^3 embedded files/m)
    const keys = ['data.txt', 'b.pdf/data.txt', 'b.pdf/more.txt']
    const contents = await Promise.all(
      keys.map(async (key) => (await qpdf(merged, [`--show-attachment=${key}`])).stdout),
    )
    assert.deepEqual(contents, ['alpha data', 'bravo data', 'more'])
    await assertClean(merged)
  })
})

describe('mergeDocuments: page labels', () => {
  it('each document keeps its labels; one without is numbered from its own first page', async () => {
    const { merged } = merge([
      {
        name: 'a.pdf',
        bytes: textPdf('Alpha', 3, {
          labels: [
            { from: 0, style: 'r' },
            { from: 1, style: 'D' },
          ],
        }),
      },
      { name: 'b.pdf', bytes: textPdf('Bravo', 2) },
      { name: 'c.pdf', bytes: textPdf('Charlie', 2, { labels: [{ from: 0, style: 'D', prefix: 'C-' }] }) },
    ])
    const doc = new mupdf.PDFDocument(merged)
    const labels = Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).getLabel())
    assert.deepEqual(labels, ['i', '1', '2', '1', '2', 'C-1', 'C-2'])
    await assertClean(merged)
  })
})

describe('mergeDocuments: size', () => {
  it('three 100-page documents merge into 300 pages (time reported)', async (t) => {
    const inputs = ['Alpha', 'Bravo', 'Charlie'].map((label) => ({
      name: `${label}.pdf`,
      bytes: textPdf(label, 100, { outline: [{ title: `${label} start`, page: 1 }] }),
    }))
    const docs = inputs.map(({ name, bytes }) => ({ name, doc: openPdf(bytes).doc }))
    const started = performance.now()
    const { offsets } = mergeDocuments(docs[0]!, docs.slice(1))
    const merging = performance.now() - started
    const merged = docs[0]!.doc.saveToBuffer('incremental').asUint8Array().slice()
    const total = performance.now() - started
    t.diagnostic(`merge ${merging.toFixed(1)} ms, merge + incremental save ${total.toFixed(1)} ms`)
    assert.deepEqual(offsets, [0, 100, 200])
    assert.equal((await pdftotext(merged, { firstPage: 201, lastPage: 201 })).trim(), 'Charlie page 1')
    assert.ok(total < 5000, `${total} ms`)
    await assertClean(merged)
  })
})
