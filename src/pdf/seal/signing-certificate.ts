// The service's sealing identity: the key and certificate that seal every final PDF
// (seal-pades.ts). SIGNING_CERT_P12 names a PKCS#12 file or holds its base64; without it, a
// self-signed certificate is generated once in the data directory (self-signed-seal.ts).
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import forge from 'node-forge'
import { loadOrCreateSelfSigned } from './self-signed-seal.ts'

/** Node's names for P-256, P-384 and P-521. */
const SEALING_CURVES = ['prime256v1', 'secp384r1', 'secp521r1']

export interface SealingIdentity {
  /** Signs the seals: RSA of 2048 bits or more, or ECDSA on P-256, P-384 or P-521. */
  readonly privateKey: KeyObject
  /** DER of the certificate of `privateKey`. */
  readonly certificate: Uint8Array
  /** DER of the other certificates of the PKCS#12 (its issuers), embedded in every seal. */
  readonly chain: readonly Uint8Array[]
  /** The certificate subject's common name (its whole subject when it has none), for display. */
  readonly commonName: string
  readonly notAfter: Date
  readonly source: { kind: 'p12' } | { kind: 'self-signed'; path: string; created: boolean }
}

export interface SigningCertificateOptions {
  dataDir: string
  /** SIGNING_CERT_P12: the path of a PKCS#12 file or, when no such file exists, its base64. */
  p12?: string
  /** SIGNING_CERT_PASSWORD; empty or undefined for a PKCS#12 without password. */
  password?: string
  /** When a self-signed certificate is generated: its validity starts here. */
  now?: Date
}

/** Errors name the variable at fault, so they read well as a start-up error line. */
export async function loadSigningCertificate(options: SigningCertificateOptions): Promise<SealingIdentity> {
  if (!options.p12) return selfSignedIdentity(options.dataDir, options.now ?? new Date())
  const { der, origin } = await readP12(options.p12)
  const { keys, certificates } = openP12(der, origin, options.password ?? '')
  return identityOf(keys, certificates, { kind: 'p12' }, 'SIGNING_CERT_P12')
}

async function selfSignedIdentity(dataDir: string, now: Date): Promise<SealingIdentity> {
  const { pem, path, created } = await loadOrCreateSelfSigned(dataDir, now)
  const where = `the sealing identity ${path} (remove it to generate a new one, or set SIGNING_CERT_P12)`
  try {
    const certificates = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []
    const keys = [createPrivateKey(pem)]
    return identityOf(
      keys,
      certificates.map((block) => new X509Certificate(block).raw),
      { kind: 'self-signed', path, created },
      'it',
    )
  } catch (error) {
    throw new Error(`${where} is unreadable: ${(error as Error).message}`)
  }
}

/**
 * A readable file wins; otherwise the value must be base64 (whitespace allowed, as `base64` wraps).
 * `origin` says which reading was taken, for the errors that follow.
 */
async function readP12(value: string): Promise<{ der: Buffer; origin: string }> {
  try {
    return { der: await readFile(value), origin: `the file ${value}` }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENAMETOOLONG' && code !== 'ENOTDIR') {
      throw new Error(`SIGNING_CERT_P12: cannot read the file ${value} (${code ?? (error as Error).message})`)
    }
  }
  // A path is short and names no file; base64 of a PKCS#12 is kilobytes: never echo it.
  const notAFile = value.length <= 200 ? `no file at ${value}` : 'not a file'
  const base64 = value.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 === 1) {
    throw new Error(
      `SIGNING_CERT_P12 must be the path of a PKCS#12 file or its base64: ${notAFile}, and not base64`,
    )
  }
  return { der: Buffer.from(base64, 'base64'), origin: `read as base64, ${notAFile}` }
}

/**
 * node-forge reads every PKCS#12 in use: OpenSSL 3's default (PBES2, AES-256-CBC, SHA-256 MAC) and
 * the legacy 3DES and RC2-40 that Windows, older Java keytool and OpenSSL 1.x write, which
 * WebCrypto-based readers (pkijs) refuse, as Node's OpenSSL 3 does RC2 (a legacy-provider cipher).
 * Parsing is lenient (not strict DER): not every exporter writes DER, and the MAC still checks the file.
 */
function openP12(
  der: Buffer,
  origin: string,
  password: string,
): { keys: KeyObject[]; certificates: Buffer[] } {
  let p12: forge.pkcs12.Pkcs12Pfx
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')), false)
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password)
  } catch (error) {
    const message = (error as Error).message
    if (/password|MAC could not be verified|decrypt/i.test(message)) {
      throw new Error(`SIGNING_CERT_PASSWORD does not open SIGNING_CERT_P12, ${origin} (${message})`)
    }
    throw new Error(`SIGNING_CERT_P12 is not a PKCS#12 file, ${origin} (${message})`)
  }
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? []
  const keyBags = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)]
  return { keys: keyBags.map(keyOf), certificates: bags(forge.pki.oids.certBag!).map(certificateOf) }
}

/** forge decodes RSA keys and certificates; others (EC) it leaves as ASN.1, which Node reads. */
function keyOf(bag: forge.pkcs12.Bag): KeyObject {
  if (bag.key) return createPrivateKey(forge.pki.privateKeyToPem(bag.key))
  if (!bag.asn1) throw new Error('SIGNING_CERT_P12 holds an empty key bag')
  return createPrivateKey({ key: derOf(bag.asn1), format: 'der', type: 'pkcs8' })
}

/** forge re-encodes the certificate from the TBS it captured, so the DER is the original's. */
function certificateOf(bag: forge.pkcs12.Bag): Buffer {
  if (bag.cert) return derOf(forge.pki.certificateToAsn1(bag.cert))
  if (!bag.asn1) throw new Error('SIGNING_CERT_P12 holds an empty certificate bag')
  return derOf(bag.asn1)
}

function derOf(asn1: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')
}

/** The first key that has its certificate; every other certificate goes to the chain. */
function identityOf(
  keys: KeyObject[],
  certificates: Buffer[],
  source: SealingIdentity['source'],
  what: string,
): SealingIdentity {
  if (keys.length === 0) throw new Error(`${what} holds no private key`)
  const parsed = certificates.map((der) => new X509Certificate(der))
  for (const privateKey of keys) {
    const index = parsed.findIndex((certificate) => certificate.checkPrivateKey(privateKey))
    if (index === -1) continue
    checkKeyType(privateKey, what)
    const certificate = parsed[index]!
    return {
      privateKey,
      certificate: new Uint8Array(certificate.raw),
      chain: parsed.filter((_, i) => i !== index).map((other) => new Uint8Array(other.raw)),
      commonName: commonNameOf(certificate.subject),
      notAfter: new Date(certificate.validTo),
      source,
    }
  }
  throw new Error(`${what} holds no certificate for its private key`)
}

function checkKeyType(key: KeyObject, what: string): void {
  const { modulusLength = 0, namedCurve = '' } = key.asymmetricKeyDetails ?? {}
  const type = key.asymmetricKeyType
  if (type === 'rsa' ? modulusLength >= 2048 : type === 'ec' && SEALING_CURVES.includes(namedCurve)) return
  const size = type === 'rsa' ? ` of ${modulusLength} bits` : namedCurve ? ` on ${namedCurve}` : ''
  throw new Error(
    `${what} holds a ${type} key${size}: a seal needs RSA of 2048 bits or more, or ECDSA on P-256, P-384 or P-521`,
  )
}

/** X509Certificate.subject is one "key=value" per line. */
function commonNameOf(subject: string): string {
  const line = subject.split('\n').find((entry) => entry.startsWith('CN='))
  return line ? line.slice(3) : subject.replaceAll('\n', ', ')
}
