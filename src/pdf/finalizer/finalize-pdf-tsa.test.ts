// Issue #21 item 5 through the finalizer child: with TSA_URL both seals (final PDF, audit PDF) are
// B-T, and a failing TSA fails the finalization with a cause naming the TSA (the job then retries).
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import * as pkijs from 'pkijs'
import { auditRecord } from '../../../test/fixtures/audit-records.ts'
import { type LocalTsa, startLocalTsa } from '../../../test/fixtures/local-tsa.ts'
import { a4 } from '../../../test/fixtures/pdfs.ts'
import { pdfsig, pdfText } from '../../../test/fixtures/poppler.ts'
import { OID } from '../seal/cades-signed-data.ts'
import { closePdfFinalizer, FinalizeError, finalizePdf } from './finalize-pdf.ts'
import type { FinalizeRequest } from './finalizer-protocol.ts'

let dir: string
let tsa: LocalTsa

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paraph-final-tsa-'))
  await writeFile(join(dir, 'doc.pdf'), await a4())
  tsa = await startLocalTsa()
})
after(async () => {
  closePdfFinalizer()
  await tsa.close()
  await rm(dir, { recursive: true, force: true })
})

const request = (tsaUrl: string): FinalizeRequest => ({
  submissionId: 'sub_tsa',
  documents: [join(dir, 'doc.pdf')],
  documentNames: ['doc.pdf'],
  stamps: [],
  audit: auditRecord({ signers: 1, eventCount: 3 }),
  signedAt: '2026-01-15T10:30:00.000Z',
  identity: { dataDir: dir },
  tsaUrl,
  finalPath: join(dir, 'final.pdf'),
  auditPath: join(dir, 'audit.pdf'),
})

/** Whether the last seal of the file carries id-aa-signatureTimeStampToken. */
function hasTimestamp(pdf: Buffer): boolean {
  const last = [...pdf.toString('latin1').matchAll(/\/Contents\s*<([0-9a-fA-F]+)>/g)].at(-1)![1]!
  const content = pkijs.ContentInfo.fromBER(Buffer.from(last, 'hex')).content
  const [signer] = new pkijs.SignedData({ schema: content }).signerInfos
  return signer!.unsignedAttrs?.attributes.some((a) => a.type === OID.signatureTimeStampToken) ?? false
}

describe('finalizePdf with TSA_URL', () => {
  it('seals the final PDF and the audit PDF with a time-stamp each; both valid', async () => {
    tsa.mode = 'ok'
    const requests = tsa.requests
    const made = await finalizePdf(request(tsa.url))
    assert.equal(tsa.requests - requests, 2)
    assert.equal(made.facts.timestamp?.authority, new URL(tsa.url).toString())
    assert.ok(Math.abs(Date.parse(made.facts.timestamp!.time) - Date.now()) < 60_000, 'the token time is now')
    for (const path of ['final.pdf', 'audit.pdf']) {
      const pdf = await readFile(join(dir, path))
      assert.ok(hasTimestamp(pdf), path)
      assert.match(await pdfsig(pdf), /Signature Validation: Signature is Valid\./, path)
    }
    const auditText = await pdfText(await readFile(join(dir, 'audit.pdf')))
    assert.match(auditText.replace(/\s+/g, ' '), /Time-stamp .*certified by http:\/\/127\.0\.0\.1:\d+/)
  })

  it('fails with a cause naming the TSA when it answers 500', async () => {
    tsa.mode = 'http-500'
    await assert.rejects(
      finalizePdf(request(tsa.url)),
      (error: Error) =>
        error instanceof FinalizeError &&
        /^the time-stamping authority \(TSA_URL, 127\.0\.0\.1:\d+\) answered HTTP 500$/.test(error.message),
    )
  })
})
