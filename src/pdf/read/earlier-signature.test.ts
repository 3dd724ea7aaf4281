import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { sealPdf } from '../seal/seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from '../seal/signing-certificate.ts'
import { describeSignature } from './earlier-signature.ts'

/** The signature dictionary of the file's first signature field. */
function signatureOf(pdf: Uint8Array): mupdf.PDFObject {
  const fields = new mupdf.PDFDocument(pdf).getTrailer().get('Root', 'AcroForm', 'Fields')
  for (let i = 0; i < fields.length; i++) {
    if (fields.get(i, 'V').isDictionary()) return fields.get(i, 'V')
  }
  throw new Error('no signature')
}

describe('describeSignature', () => {
  let dir: string
  let identity: SealingIdentity
  const signedAt = new Date('2026-01-15T10:00:00Z')

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-earlier-signature-'))
    identity = await loadSigningCertificate({ dataDir: dir })
  })
  after(() => rm(dir, { recursive: true, force: true }))

  it('names the signer from /Name, with the time it claims', async () => {
    const signed = await sealPdf(textPdf('Alpha', 1), identity, { signedAt, name: 'Jane Signer' })
    assert.equal(describeSignature(signatureOf(signed)), 'Jane Signer, dated 2026-01-15T10:00:00.000Z')
  })

  it('without /Name, names the subject of the signer’s certificate in the CMS', async () => {
    const signed = await sealPdf(textPdf('Alpha', 1), identity, { signedAt })
    assert.equal(
      describeSignature(signatureOf(signed)),
      `${identity.commonName}, dated 2026-01-15T10:00:00.000Z`,
    )
  })

  it('a signature whose CMS cannot be read is an unnamed signer; its time, with an offset, in UTC', () => {
    const doc = new mupdf.PDFDocument()
    const signature = doc.addObject({ Type: 'Sig', M: "(D:20231224043055-08'00')" })
    signature.put('Contents', doc.newByteString([0x30, 0x03, 0x02, 0x01]))
    assert.equal(describeSignature(signature), 'an unnamed signer, dated 2023-12-24T12:30:55.000Z')
  })
})
