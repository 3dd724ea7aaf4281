import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createHash, randomUUID, X509Certificate } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { PageSizes, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib'
import { encryptedPdf, notAPdf } from '../../../test/fixtures/hostile-pdfs.ts'
import { p12Fixture } from '../../../test/fixtures/p12.ts'
import { a4, hundredPages } from '../../../test/fixtures/pdfs.ts'
import { pdfsig } from '../../../test/fixtures/poppler.ts'
import { OID } from './cades-signed-data.ts'
import { type SealOptions, sealPdf } from './seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from './signing-certificate.ts'

const run = promisify(execFile)
const signedAt = new Date('2026-01-15T10:30:00Z')
const options: SealOptions = {
  signedAt,
  reason: 'Final document of sub_123, sealed after every signature',
  location: 'Paraph, Zürich',
  name: 'Paraph',
  contactInfo: 'seal@example.com',
}
let dir: string
let identity: SealingIdentity

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paraph-seal-'))
  identity = await loadSigningCertificate({ dataDir: dir })
})
after(() => rm(dir, { recursive: true, force: true }))

/** Writes bytes to a new file for the command-line tools and returns its path. */
async function saved(bytes: Uint8Array, extension = 'pdf'): Promise<string> {
  const path = join(dir, `${randomUUID()}.${extension}`)
  await writeFile(path, bytes)
  return path
}

/** Resolves only when qpdf --check exits 0: no error, no warning. */
const qpdfCheck = async (pdf: Uint8Array) => run('qpdf', ['--check', await saved(pdf)])

async function assertSealValid(sealed: Uint8Array): Promise<void> {
  const report = await pdfsig(sealed)
  assert.match(report, /Signature Validation: Signature is Valid\./, report)
  assert.match(report, /Total document signed/, report)
  assert.match(report, /Signature Type: ETSI\.CAdES\.detached/, report)
  await qpdfCheck(sealed)
}

async function onePageDoc(): Promise<PDFDocument> {
  const doc = await PDFDocument.create()
  doc.addPage(PageSizes.A4).drawText('Contract', { x: 50, y: 700 })
  return doc
}

/** The signature dictionaries of the file, through pdf-lib's parser: the fields' /V. */
async function signatureDictionaries(pdf: Uint8Array): Promise<PDFDict[]> {
  const doc = await PDFDocument.load(pdf)
  const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray)
  return fields
    .asArray()
    .map((ref) => doc.context.lookup(ref, PDFDict))
    .filter((field) => field.get(PDFName.of('FT')) === PDFName.of('Sig'))
    .map((field) => field.lookup(PDFName.of('V'), PDFDict))
}

/** The DER in /Contents, without the zero padding after it. */
function cmsOf(signature: PDFDict): Buffer {
  const contents = Buffer.from(signature.lookup(PDFName.of('Contents'), PDFHexString).asBytes())
  assert.equal(contents[0], 0x30)
  const lengthBytes = contents[1]! & 0x7f
  return contents.subarray(0, 2 + lengthBytes + contents.readUIntBE(2, lengthBytes))
}

async function opensslCms(args: string[], cms: Buffer): Promise<{ stdout: string; stderr: string }> {
  return run('openssl', ['cms', '-inform', 'DER', '-in', await saved(cms, 'der'), ...args], {
    encoding: 'utf8',
  })
}

describe('sealPdf: pdfsig finds a valid seal over the whole file, qpdf --check passes', () => {
  it("a PDF from pdf-lib's save() (object streams, cross-reference stream)", async () => {
    await assertSealValid(await sealPdf(await (await onePageDoc()).save(), identity, options))
  })

  it('a PDF from save({ useObjectStreams: false }) (cross-reference table)', async () => {
    const pdf = await (await onePageDoc()).save({ useObjectStreams: false })
    await assertSealValid(await sealPdf(pdf, identity, options))
  })

  it('a 100-page PDF of 5 MB', async () => {
    await assertSealValid(await sealPdf(await hundredPages(), identity, options))
  })

  it('a PDF rewritten by qpdf, its catalog and pages inside object streams', async () => {
    const path = await saved(await (await onePageDoc()).save({ useObjectStreams: false }))
    await run('qpdf', ['--object-streams=generate', path, `${path}.qpdf.pdf`])
    await assertSealValid(await sealPdf(await readFile(`${path}.qpdf.pdf`), identity, options))
  })

  it('a PDF with a form field keeps it and gains the seal field', async () => {
    const doc = await onePageDoc()
    doc.getForm().createTextField('signer.name').addToPage(doc.getPage(0), { x: 50, y: 600 })
    const sealed = await sealPdf(await doc.save(), identity, options)
    await assertSealValid(sealed)
    const names = (await PDFDocument.load(sealed))
      .getForm()
      .getFields()
      .map((field) => field.getName())
    assert.deepEqual(names, ['signer.name', 'Paraph seal'])
  })

  it('an ECDSA P-256 identity seals too', async () => {
    const fixture = await p12Fixture(dir, 'ec', { key: 'ec' })
    const ec = await loadSigningCertificate({ dataDir: dir, p12: fixture.path })
    await assertSealValid(await sealPdf(await a4(), ec, options))
  })
})

describe('sealPdf appends an incremental update', () => {
  it('the original bytes stay as they were, at the start of the sealed file', async () => {
    const pdf = await a4()
    const sealed = await sealPdf(pdf, identity, options)
    assert.ok(sealed.length > pdf.length)
    assert.equal(Buffer.compare(sealed.subarray(0, pdf.length), pdf), 0)
  })

  it('sealing a sealed PDF keeps the first seal valid, now over part of the file', async () => {
    const once = await sealPdf(await a4(), identity, options)
    const twice = await sealPdf(once, identity, { signedAt: new Date('2026-01-16T08:00:00Z') })
    const report = await pdfsig(twice)
    const [first, second] = report.split(/Signature #2:/)
    assert.match(
      first!,
      /Field Name: Paraph seal\n[\s\S]*Not total document signed[\s\S]*Signature is Valid\./,
    )
    assert.match(
      second!,
      /Field Name: Paraph seal 2\n[\s\S]*Total document signed[\s\S]*Signature is Valid\./,
    )
    await qpdfCheck(twice)
  })
})

describe('a changed byte breaks the seal', () => {
  it('before /Contents (a header comment byte): pdfsig reports Digest Mismatch', async () => {
    const sealed = Buffer.from(await sealPdf(await a4(), identity, options))
    assert.equal(sealed.toString('latin1', 0, 10), '%PDF-1.7\n%')
    sealed[10] = sealed[10]! ^ 0x01
    assert.match(await pdfsig(sealed), /Signature Validation: Digest Mismatch\./)
  })

  it('after /Contents (the last end-of-line): pdfsig reports Digest Mismatch', async () => {
    const sealed = Buffer.from(await sealPdf(await a4(), identity, options))
    assert.equal(sealed[sealed.length - 1], 0x0a)
    sealed[sealed.length - 1] = 0x20
    assert.match(await pdfsig(sealed), /Signature Validation: Digest Mismatch\./)
  })
})

describe('the signature dictionary and its CMS (PAdES B-B)', () => {
  it('/Filter /Adobe.PPKLite, /SubFilter /ETSI.CAdES.detached, /M is signedAt, texts as given, /ByteRange all but /Contents', async () => {
    const sealed = await sealPdf(await a4(), identity, options)
    const [signature] = await signatureDictionaries(sealed)
    const name = (key: string) => signature!.get(PDFName.of(key))
    const text = (key: string) => {
      const value = signature!.lookup(PDFName.of(key))
      assert.ok(value instanceof PDFString || value instanceof PDFHexString, key)
      return value.decodeText()
    }
    assert.equal(name('Type'), PDFName.of('Sig'))
    assert.equal(name('Filter'), PDFName.of('Adobe.PPKLite'))
    assert.equal(name('SubFilter'), PDFName.of('ETSI.CAdES.detached'))
    assert.equal(
      signature!.lookup(PDFName.of('M'), PDFString).decodeDate().toISOString(),
      signedAt.toISOString(),
    )
    assert.equal(text('Reason'), options.reason)
    assert.equal(text('Location'), options.location)
    assert.equal(text('Name'), options.name)
    assert.equal(text('ContactInfo'), options.contactInfo)
    const range = signature!.lookup(PDFName.of('ByteRange'), PDFArray).asArray().map(Number)
    const [start, gap, resume, rest] = range as [number, number, number, number]
    assert.equal(start, 0)
    assert.equal(resume + rest, sealed.length)
    const hole = Buffer.from(sealed.subarray(gap, resume)).toString('latin1')
    assert.match(hole, /^<[0-9a-f]+>$/)
    assert.match(Buffer.from(sealed.subarray(gap - 10, gap)).toString('latin1'), /\/Contents\s*$/)
  })

  it('signed attributes are exactly content-type, message-digest, signing-certificate-v2: no signing-time', async () => {
    const [signature] = await signatureDictionaries(await sealPdf(await a4(), identity, options))
    const { stdout } = await opensslCms(['-cmsout', '-print'], cmsOf(signature!))
    const signedAttributes = stdout.slice(
      stdout.indexOf('signedAttrs:'),
      stdout.indexOf('signatureAlgorithm:'),
    )
    const oids = [...signedAttributes.matchAll(/object: .*\(([\d.]+)\)/g)].map((match) => match[1])
    assert.deepEqual(oids, [OID.contentType, OID.messageDigest, OID.signingCertificateV2])
    assert.doesNotMatch(stdout, new RegExp(OID.signingTime.replaceAll('.', '\\.')))
    assert.match(stdout, /eContent: <ABSENT>/, 'detached')
    assert.match(stdout, /digestAlgorithm: \s+algorithm: sha256/)
  })

  it('signing-certificate-v2 holds the SHA-256 of the sealing certificate, its issuer and serial', async () => {
    const [signature] = await signatureDictionaries(await sealPdf(await a4(), identity, options))
    const { stdout } = await opensslCms(['-cmsout', '-print'], cmsOf(signature!))
    const attribute = stdout.slice(
      stdout.indexOf(OID.signingCertificateV2),
      stdout.indexOf('signatureAlgorithm:'),
    )
    const certificate = new X509Certificate(identity.certificate)
    const hash = createHash('sha256').update(identity.certificate).digest('hex').toUpperCase()
    assert.match(attribute, new RegExp(`OCTET STRING +\\[HEX DUMP\\]:${hash}`))
    assert.match(attribute, /cont \[ 4 \][\s\S]*:Paraph electronic seal \(self-signed\)/)
    assert.match(attribute, new RegExp(`INTEGER +:${certificate.serialNumber}`))
  })

  it('openssl cms -verify accepts it over the byte range; the certificate and its chain are embedded', async () => {
    const fixture = await p12Fixture(dir, 'chain', { withCa: true })
    const issued = await loadSigningCertificate({ dataDir: dir, p12: fixture.path })
    const sealed = await sealPdf(await a4(), issued, options)
    const [signature] = await signatureDictionaries(sealed)
    const [, gap, resume] = signature!.lookup(PDFName.of('ByteRange'), PDFArray).asArray().map(Number)
    const content = await saved(Buffer.concat([sealed.subarray(0, gap), sealed.subarray(resume)]), 'bin')
    const cms = cmsOf(signature!)
    // -noverify: the chain is not trusted here; the signature and the ESS certificate hash are checked.
    const { stderr } = await opensslCms(
      ['-verify', '-binary', '-content', content, '-noverify', '-out', '/dev/null'],
      cms,
    )
    assert.match(stderr, /Verification successful/)
    const { stdout } = await run('openssl', [
      'pkcs7',
      '-inform',
      'DER',
      '-in',
      await saved(cms, 'der'),
      '-print_certs',
    ])
    const embedded = stdout.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []
    const ders = embedded.map((pem) => new X509Certificate(pem).raw).sort(Buffer.compare)
    assert.deepEqual(ders, [fixture.certificate, fixture.ca!].sort(Buffer.compare), 'byte for byte')
  })
})

describe('sealPdf refuses what it cannot seal', () => {
  it('an encrypted PDF', async () => {
    await assert.rejects(
      sealPdf(await encryptedPdf('owner'), identity, options),
      /^Error: cannot seal an encrypted PDF/,
    )
  })

  it('bytes that are not a PDF', async () => {
    await assert.rejects(sealPdf(await notAPdf(), identity, options), /^Error: cannot seal/)
  })
})

describe('timings', () => {
  it('reports the median time to seal a 1-page and a 100-page (5 MB) PDF', async (t) => {
    for (const [label, pdf] of [
      ['1 page', await a4()],
      ['100 pages, 5 MB', await hundredPages()],
    ] as const) {
      await sealPdf(pdf, identity, options)
      const times: number[] = []
      for (let i = 0; i < 5; i++) {
        const start = performance.now()
        await sealPdf(pdf, identity, options)
        times.push(performance.now() - start)
      }
      const median = times.sort((a, b) => a - b)[2]!
      t.diagnostic(`sealPdf, ${label}: median ${median.toFixed(1)} ms of 5`)
    }
  })
})
