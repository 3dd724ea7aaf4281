// Issue #21 item 1 and 3: the final PDF is the original signed — an incremental update keeping
// everything the original had — or, for an original that cannot be updated as it is (encrypted,
// damaged), the repaired or decrypted file signed, and said so. Judged by qpdf and poppler.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  brokenXref,
  certifiedPdf,
  EARLIER_SIGNER,
  ENCRYPTED_TEXT,
  encryptedPdf,
  FORM_FIELDS,
  hugeObjectNumbers,
  OUTLINE_TITLES,
  PLAIN_TEXT,
  pageTreeRootIsPage,
  pageWithoutMediaBox,
  pdfWithForm,
  pdfWithOutlines,
  pdfWithoutHeader,
  SIGNED_TEXT,
  signedPdf,
  TAGGED_TEXT,
  taggedPdf,
} from '../../../test/fixtures/pdf-features.ts'
import {
  attachmentNames,
  catalogKeys,
  formFields,
  isEncrypted,
  isTagged,
  outlineTitles,
  pageLabels,
  pdfsig,
  pdftotext,
  qpdfCheck,
} from '../../../test/pdf-checks.ts'
import { sealDocument } from '../seal/seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from '../seal/signing-certificate.ts'
import { buildFinalDocument, checkFinalPdf, type DocumentFacts, type DocumentStamp } from './final-pdf.ts'
import { FinalPdfError } from './final-pdf-error.ts'

const SUBMISSION = 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE'
const VALUE = 'Corpus check 42 — Łódź'
const stamp: DocumentStamp = {
  document: 0,
  page: 1,
  area: { x: 0.1, y: 0.1, w: 0.6, h: 0.05 },
  value: { kind: 'text', text: VALUE },
}

let dir: string
let identity: SealingIdentity
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paraph-original-'))
  identity = await loadSigningCertificate({ dataDir: dir })
})
after(() => rm(dir, { recursive: true, force: true }))

/** What the finalizer does: build, seal in the same incremental save, check. */
async function signed(original: Uint8Array): Promise<{ final: Uint8Array; facts: DocumentFacts }> {
  const document = await buildFinalDocument({
    documents: [original],
    stamps: [stamp],
    submissionId: SUBMISSION,
  })
  let final: Uint8Array
  try {
    final = await sealDocument(document.doc, identity, { signedAt: new Date('2026-11-26T09:00:00Z') })
  } finally {
    document.doc.destroy()
  }
  checkFinalPdf(final, document)
  return { final, facts: document.facts[0]! }
}

const isPrefix = (final: Uint8Array, original: Uint8Array) =>
  Buffer.from(final.subarray(0, original.length)).equals(original)

/** Paraph's seal is the last signature, valid over the whole file; the value prints whole. */
async function assertSealedFinal(final: Uint8Array) {
  assert.equal((await qpdfCheck(final)).code, 0, (await qpdfCheck(final)).output)
  const seal = (await pdfsig(final)).at(-1)
  assert.ok(seal?.valid, seal?.raw)
  assert.ok(seal.totalDocumentSigned, seal.raw)
  assert.match(
    (await pdftotext(final, { firstPage: 1, lastPage: 1 })).replace(/\s+/g, ' '),
    /Corpus check 42 — Łódź/,
  )
}

describe('the final PDF of an original that can be updated as it is', () => {
  it('keeps outlines, page labels, named destinations, metadata and attachments; the original is its prefix', async () => {
    const original = await pdfWithOutlines()
    const { final, facts } = await signed(original)
    assert.ok(isPrefix(final, original))
    assert.equal(facts.rewritten_sha256, null)
    await assertSealedFinal(final)
    assert.deepEqual(await outlineTitles(final), await outlineTitles(original))
    assert.deepEqual(await outlineTitles(final), [...OUTLINE_TITLES])
    assert.deepEqual(await pageLabels(final), await pageLabels(original))
    assert.deepEqual(await attachmentNames(final), await attachmentNames(original))
    for (const key of await catalogKeys(original)) assert.ok((await catalogKeys(final)).has(key), key)
  })

  it('keeps the form reachable from /AcroForm with its values, every field read-only', async () => {
    const original = await pdfWithForm()
    const { final } = await signed(original)
    assert.ok(isPrefix(final, original))
    await assertSealedFinal(final)
    const before = await formFields(original)
    const fields = (await formFields(final)).filter((field) => field.type !== 'signature')
    assert.equal(fields.length, FORM_FIELDS.length)
    for (const field of fields) {
      const was = before.find((f) => f.name === field.name)
      assert.ok(was, field.name)
      assert.deepEqual(field.value, was.value, field.name)
      assert.equal(field.readOnly, true, field.name)
    }
  })

  it('keeps a tagged PDF tagged, what Paraph draws marked as an artifact', async () => {
    const original = await taggedPdf()
    const { final } = await signed(original)
    assert.ok(isPrefix(final, original))
    await assertSealedFinal(final)
    assert.ok(await isTagged(final))
    assert.match(await pdftotext(final), new RegExp(TAGGED_TEXT.replace('.', '\\.')))
    assert.match(Buffer.from(final.subarray(original.length)).toString('latin1'), /\/Artifact BMC/)
  })

  it('keeps an earlier signature valid, and lists it', async () => {
    const original = await signedPdf()
    const { final, facts } = await signed(original)
    assert.ok(isPrefix(final, original))
    await assertSealedFinal(final)
    const [earlier, seal] = await pdfsig(final)
    assert.equal(earlier?.signer, EARLIER_SIGNER)
    assert.ok(earlier?.valid, earlier?.raw)
    assert.ok(seal?.valid && seal.totalDocumentSigned)
    assert.equal(facts.signatures.length, 1)
    assert.match(await pdftotext(final), new RegExp(SIGNED_TEXT))
  })

  it('signs a document certified for form filling (P=2) with locked annotations; the certification stays valid', async () => {
    const original = await certifiedPdf(2)
    const { final, facts } = await signed(original)
    assert.equal(facts.certification, 2)
    assert.ok(isPrefix(final, original))
    await assertSealedFinal(final)
    const [certification] = await pdfsig(final)
    assert.ok(certification?.valid, certification?.raw)
    const appended = Buffer.from(final.subarray(original.length)).toString('latin1')
    assert.match(appended, /\/Subtype\s*\/Stamp/)
    assert.doesNotMatch(appended, /\/Artifact BMC/, 'no page content is added')
  })

  it('refuses a document certified against any change (P=1), saying so', async () => {
    await assert.rejects(
      buildFinalDocument({ documents: [await certifiedPdf(1)], stamps: [], submissionId: SUBMISSION }),
      (error: Error) =>
        error instanceof FinalPdfError &&
        /document 1 is certified by its author against any change/.test(error.message),
    )
  })
})

describe('the final PDF of an original that cannot be updated as it is', () => {
  it('decrypts a file whose user password is empty: the final is not encrypted and says so', async () => {
    for (const encryption of ['aes-256', 'aes-128', 'rc4-40'] as const) {
      const original = await encryptedPdf({ userPassword: '', encryption })
      const { final, facts } = await signed(original)
      assert.equal(facts.encrypted, true, encryption)
      assert.match(facts.rewritten_sha256 ?? '', /^[0-9a-f]{64}$/)
      assert.equal(await isEncrypted(final), false, encryption)
      await assertSealedFinal(final)
      assert.match(await pdftotext(final), new RegExp(ENCRYPTED_TEXT))
    }
  })

  it('refuses a file protected by a password, in a sentence', async () => {
    await assert.rejects(
      buildFinalDocument({
        documents: [await encryptedPdf({ userPassword: 'secret' })],
        stamps: [],
        submissionId: SUBMISSION,
      }),
      (error: Error) =>
        error instanceof FinalPdfError &&
        error.message === 'document 1 is protected by a password, so it cannot be signed',
    )
  })

  for (const [label, make] of [
    ['junk before the header', () => pdfWithoutHeader('junk-first')],
    ['no header at all', () => pdfWithoutHeader('no-header')],
    ['a page-tree root that is a Page', pageTreeRootIsPage],
    ['an object numbered 2147483647 (cross-reference table)', () => hugeObjectNumbers('xref')],
    ['an object numbered 2147483647 (the trailer object)', () => hugeObjectNumbers('trailer-object')],
    ['a page without a MediaBox', pageWithoutMediaBox],
    ['a broken cross-reference table', brokenXref],
  ] as const) {
    it(`repairs ${label}: the final opens clean in qpdf and poppler, sealed`, async () => {
      const original = await make()
      const { final, facts } = await signed(original)
      await assertSealedFinal(final)
      assert.match(await pdftotext(final), new RegExp(PLAIN_TEXT))
      if (facts.rewritten_sha256 === null)
        assert.ok(isPrefix(final, original), 'not rewritten: the prefix holds')
    })
  }
})
