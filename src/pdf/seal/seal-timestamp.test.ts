// PAdES B-T seals against a local RFC 3161 TSA (openssl ts -reply).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, it } from 'node:test'
import { promisify } from 'node:util'
import * as pkijs from 'pkijs'
import { type LocalTsa, startLocalTsa } from '../../../test/fixtures/local-tsa.ts'
import { a4 } from '../../../test/fixtures/pdfs.ts'
import { pdfsig } from '../../../test/fixtures/poppler.ts'
import { OID } from './cades-signed-data.ts'
import { sealPdf } from './seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from './signing-certificate.ts'
import type { Timestamp } from './timestamp.ts'

const run = promisify(execFile)
const signedAt = new Date('2026-01-15T10:30:00Z')
let dir: string
let identity: SealingIdentity
let tsa: LocalTsa

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paraph-seal-tsa-'))
  identity = await loadSigningCertificate({ dataDir: dir })
  tsa = await startLocalTsa()
})
after(async () => {
  await tsa.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(() => {
  tsa.mode = 'ok'
})

/** The seal's SignerInfo, read from the last /Contents of the file (the zero padding ignored). */
function signerInfoOf(sealed: Uint8Array): pkijs.SignerInfo {
  const text = Buffer.from(sealed).toString('latin1')
  const hex = /\/Contents\s*<([0-9a-fA-F]+)>/g
  const last = [...text.matchAll(hex)].at(-1)![1]!
  const contentInfo = pkijs.ContentInfo.fromBER(Buffer.from(last, 'hex'))
  const [signer] = new pkijs.SignedData({ schema: contentInfo.content }).signerInfos
  return signer!
}

function tokenOf(signer: pkijs.SignerInfo): Buffer | undefined {
  const attribute = signer.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)
  return attribute && Buffer.from(attribute.values[0].toBER())
}

describe('sealPdf with a TSA (PAdES B-T)', () => {
  it('pdfsig finds the seal valid; its token verifies with openssl over the SHA-256 of the signature value', async () => {
    let heard: Timestamp | undefined
    const before = Date.now()
    const sealed = await sealPdf(await a4(), identity, {
      signedAt,
      tsa: { url: tsa.url, onTimestamp: (timestamp) => (heard = timestamp) },
    })
    const report = await pdfsig(sealed)
    assert.match(report, /Signature Validation: Signature is Valid\./, report)
    assert.match(report, /Total document signed/, report)
    const signer = signerInfoOf(sealed)
    const token = tokenOf(signer)
    assert.ok(token, 'the unsigned attribute id-aa-signatureTimeStampToken')
    assert.deepEqual(heard?.token, new Uint8Array(token))
    // The TSA's clock (seconds), not /M: within the seal's own run.
    assert.ok(heard.time.getTime() >= before - 2000 && heard.time.getTime() <= Date.now() + 2000)
    const imprint = createHash('sha256').update(signer.signature.valueBlock.valueHexView).digest('hex')
    const tokenFile = join(dir, 'token.der')
    await writeFile(tokenFile, token)
    const verify = (digest: string) =>
      run('openssl', [
        'ts',
        '-verify',
        '-token_in',
        '-in',
        tokenFile,
        '-digest',
        digest,
        '-CAfile',
        tsa.caFile,
      ])
    assert.match((await verify(imprint)).stdout, /Verification: OK/)
    // Not over the document, nor anything else: another imprint fails.
    await assert.rejects(
      verify(createHash('sha256').update(sealed).digest('hex')),
      /message imprint mismatch/,
    )
  })

  it('reserves room for the token: the /Contents hole of a B-T seal is the B-B one + 16 KiB', async () => {
    const hole = (pdf: Uint8Array) =>
      /\/Contents\s*<([0-9a-fA-F]+)>/.exec(Buffer.from(pdf).toString('latin1'))![1]!.length
    const plain = await sealPdf(await a4(), identity, { signedAt })
    const stamped = await sealPdf(await a4(), identity, { signedAt, tsa: { url: tsa.url } })
    assert.equal(hole(stamped) - hole(plain), 2 * (16 * 1024 + 64))
  })

  it('without a TSA nothing changes: no unsigned attribute, no request', async () => {
    const requests = tsa.requests
    const signer = signerInfoOf(await sealPdf(await a4(), identity, { signedAt }))
    assert.equal(signer.unsignedAttrs, undefined)
    assert.equal(tsa.requests, requests)
  })
})

describe('a TSA failure fails the seal: never a seal on the local clock alone', () => {
  const seal = (timeoutMs?: number) =>
    a4().then((pdf) => sealPdf(pdf, identity, { signedAt, tsa: { url: tsa.url, timeoutMs } }))

  it('an HTTP 500', async () => {
    tsa.mode = 'http-500'
    await assert.rejects(
      seal(),
      /^FinalPdfError: the time-stamping authority \(TSA_URL, 127\.0\.0\.1:\d+\) answered HTTP 500$/,
    )
  })

  it('no answer within the timeout', async () => {
    tsa.mode = 'silent'
    await assert.rejects(
      seal(500),
      /^FinalPdfError: the time-stamping authority \(TSA_URL, [^)]+\) did not answer within 500 ms$/,
    )
  })

  it('a rejection (RFC 3161 status 2)', async () => {
    tsa.mode = 'rejection'
    await assert.rejects(seal(), /time-stamping authority .* refused the request \(status 2\)/)
  })

  it('nothing listening', async () => {
    const closed = await startLocalTsa()
    const url = closed.url
    await closed.close()
    await assert.rejects(
      a4().then((pdf) => sealPdf(pdf, identity, { signedAt, tsa: { url } })),
      /^FinalPdfError: the time-stamping authority \(TSA_URL, 127\.0\.0\.1:\d+\) fetch failed$/,
    )
  })
})
