// Without SIGNING_CERT_P12 the service seals with a self-signed certificate, generated once and kept
// beside the master secret (docs/operations.md#configuration), so every final PDF of an
// installation carries the same sealing identity. Verifiers show it as "not trusted": the seal
// still proves the file is unaltered.
import { createHash, generateKeyPair, randomBytes, sign, X509Certificate } from 'node:crypto'
import { link, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import * as asn1js from 'asn1js'
import * as pkijs from 'pkijs'
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../../lib/private-files.ts'

export const SELF_SIGNED_FILE = 'paraph-seal.pem'
const SUBJECT = {
  commonName: 'Paraph electronic seal (self-signed)',
  organization: 'Paraph',
}

const generateKeyPairAsync = promisify(generateKeyPair)
const VALIDITY_YEARS = 10
const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  subjectKeyIdentifier: '2.5.29.14',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
}

/**
 * Returns the PEM (PKCS#8 private key, then the certificate) kept in `dataDir`, generating it on
 * first use. The file is written whole under a temporary name, then hard-linked into place: link()
 * fails with EEXIST when another process won the race, so two processes starting together both
 * end up reading the one complete file (a plain 'wx' write could be read half-written).
 */
export async function loadOrCreateSelfSigned(
  dataDir: string,
  now: Date,
): Promise<{ pem: string; path: string; created: boolean }> {
  const path = join(dataDir, SELF_SIGNED_FILE)
  const existing = await readIfExists(path)
  if (existing !== undefined) return { pem: existing, path, created: false }
  await makePrivateDir(dataDir)
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temp, await createSelfSignedPem(now), { flag: 'wx', mode: PRIVATE_FILE_MODE })
  await makePrivateFile(temp)
  let created = true
  try {
    await link(temp, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    created = false
  } finally {
    await rm(temp, { force: true })
  }
  return { pem: await readFile(path, 'utf8'), path, created }
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * RSA 3072 with SHA-256: RSA is what every PDF validator verifies (Acrobat, poppler, DSS), and 3072
 * bits give 128-bit strength, which NIST SP 800-57 Part 1 asks of a key used after 2030 (RSA 2048
 * gives 112), as this 10-year certificate will be. Signing costs about 2 ms.
 */
export async function createSelfSignedPem(now: Date): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPairAsync('rsa', { modulusLength: 3072 })
  const spki = publicKey.export({ type: 'spki', format: 'der' })
  const certificate = new pkijs.Certificate({
    version: 2,
    serialNumber: new asn1js.Integer({ valueHex: positiveSerial() }),
    issuer: subjectName(),
    subject: subjectName(),
    // UTCTime (type 0) until 2049, RFC 5280 §4.1.2.5. One hour back: a verifier whose clock lags
    // must not see a certificate "not yet valid".
    notBefore: new pkijs.Time({ type: 0, value: new Date(now.getTime() - 3_600_000) }),
    notAfter: new pkijs.Time({ type: 0, value: yearsLater(now, VALIDITY_YEARS) }),
    subjectPublicKeyInfo: pkijs.PublicKeyInfo.fromBER(spki),
    signature: sha256WithRsa(),
    signatureAlgorithm: sha256WithRsa(),
  })
  certificate.extensions = extensions(certificate.subjectPublicKeyInfo)
  const tbs = Buffer.from(certificate.encodeTBS().toBER())
  certificate.signatureValue = new asn1js.BitString({ valueHex: sign('sha256', tbs, privateKey) })
  const der = Buffer.from(certificate.toSchema(true).toBER())
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  return `${keyPem}${new X509Certificate(der).toString()}`
}

/**
 * O then CN, one attribute per RDN. Built as ASN.1 then parsed, since pkijs would put every
 * attribute in one multi-valued RDN ("O=Paraph + CN=…").
 */
function subjectName(): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: string) =>
    new asn1js.Set({
      value: [new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }).toSchema()],
    })
  const name = new asn1js.Sequence({
    value: [rdn(OID.organization, SUBJECT.organization), rdn(OID.commonName, SUBJECT.commonName)],
  })
  return pkijs.RelativeDistinguishedNames.fromBER(name.toBER())
}

/** RFC 5280 §4.1.2.2: a positive integer of at most 20 octets; 16 random octets, top bit clear. */
function positiveSerial(): ArrayBuffer {
  const serial = randomBytes(16)
  serial[0] = (serial[0]! & 0x7f) | 0x01
  return new Uint8Array(serial).buffer
}

function yearsLater(date: Date, years: number): Date {
  const later = new Date(date.getTime())
  later.setUTCFullYear(later.getUTCFullYear() + years)
  return later
}

function sha256WithRsa(): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({
    algorithmId: OID.sha256WithRSAEncryption,
    algorithmParams: new asn1js.Null(),
  })
}

/**
 * keyUsage digitalSignature + nonRepudiation (critical): a key that signs documents, not TLS or
 * certificates; basicConstraints cA false; a subject key identifier (RFC 5280 §4.2.1.2, method 1).
 * No extended key usage: absent, it restricts nothing, while validators check one that is present
 * against their own lists.
 */
function extensions(spki: pkijs.PublicKeyInfo): pkijs.Extension[] {
  const keyBits = spki.subjectPublicKey.valueBlock.valueHexView
  return [
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      // BIT STRING 11 (bits 0 and 1): 0xC0 with 6 unused bits (X.690 §11.2.2, trailing zeros dropped).
      extnValue: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 }).toBER(),
    }),
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: false,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(),
    }),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: createHash('sha1').update(keyBits).digest() }).toBER(),
    }),
  ]
}
