// The CMS of a PAdES B-B seal: a detached SignedData (RFC 5652) whose signer carries exactly the
// signed attributes ETSI EN 319 142-1 §6.3 requires of a baseline B-B signature — content-type,
// message-digest, signing-certificate-v2 — and no signing-time, whose place is the /M entry.
// Issue #21 item 5 (B-T): with a time-stamper, the signer also carries the unsigned attribute
// id-aa-signatureTimeStampToken, a token over its signature value.
import { createHash, type KeyObject, sign } from 'node:crypto'
import * as asn1js from 'asn1js'
import * as pkijs from 'pkijs'
import type { SealingIdentity } from './signing-certificate.ts'

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const

const EC_FIELD_BYTES: Record<string, number> = { prime256v1: 32, secp384r1: 48, secp521r1: 66 }

/**
 * What the unsigned attribute adds around a token of N bytes: the [1] SET, the Attribute SEQUENCE,
 * its OID and value SET (25 bytes), and longer length octets of the four enclosing structures.
 */
export const TIMESTAMP_ATTRIBUTE_OVERHEAD = 64

/** DER of a TimeStampToken over the signature value, from a TSA (timestamp.ts). */
export type TimeStamper = (signature: Uint8Array) => Promise<Uint8Array>

/**
 * DER of the SignedData (in its ContentInfo) over content whose SHA-256 is `digest`; with
 * `stamp`, B-T: the token it returns goes in the signer's unsigned attributes.
 */
export async function cadesSignedData(
  identity: SealingIdentity,
  digest: Uint8Array,
  stamp?: TimeStamper,
): Promise<Uint8Array> {
  const signerInfo = signerInfoOf(identity, digest, (signedAttributes) =>
    sign('sha256', signedAttributes, identity.privateKey),
  )
  if (stamp) {
    const token = await stamp(new Uint8Array(signerInfo.signature.valueBlock.valueHexView))
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [asTokenValue(token)] })],
    })
  }
  return contentInfoOf(identity, signerInfo)
}

/** The token parsed for pkijs, refused unless it encodes back byte for byte (its signature covers it). */
function asTokenValue(token: Uint8Array): asn1js.AsnType {
  const parsed = asn1js.fromBER(token)
  if (parsed.offset === -1 || !Buffer.from(parsed.result.toBER()).equals(token)) {
    throw new Error('the time-stamp token is not in DER and cannot be embedded unchanged')
  }
  return parsed.result
}

/**
 * The most bytes cadesSignedData can return for this identity, without a time-stamp: the same
 * structure with a signature of the largest size the key can produce, so /Contents can be
 * reserved before the file is hashed. A time-stamp adds its token + TIMESTAMP_ATTRIBUTE_OVERHEAD.
 */
export function cadesSignedDataMaxLength(identity: SealingIdentity): number {
  let length = maxLengths.get(identity)
  if (length === undefined) {
    const longest = new Uint8Array(maxSignatureLength(identity.privateKey))
    length = contentInfoOf(
      identity,
      signerInfoOf(identity, new Uint8Array(32), () => longest),
    ).length
    maxLengths.set(identity, length)
  }
  return length
}

/** Per identity, once: building the structure costs a few milliseconds per seal otherwise. */
const maxLengths = new WeakMap<SealingIdentity, number>()
const parsed = new WeakMap<SealingIdentity, { signer: pkijs.Certificate; all: pkijs.Certificate[] }>()

/** The identity's certificates as pkijs reads them, parsed once per identity (only read after). */
function certificatesOf(identity: SealingIdentity): { signer: pkijs.Certificate; all: pkijs.Certificate[] } {
  let certificates = parsed.get(identity)
  if (!certificates) {
    certificates = {
      signer: pkijs.Certificate.fromBER(identity.certificate),
      all: sortedByEncoding([identity.certificate, ...identity.chain]).map((der) =>
        pkijs.Certificate.fromBER(der),
      ),
    }
    parsed.set(identity, certificates)
  }
  return certificates
}

function signerInfoOf(
  identity: SealingIdentity,
  digest: Uint8Array,
  signAttributes: (der: Uint8Array) => Uint8Array,
): pkijs.SignerInfo {
  const { signer } = certificatesOf(identity)
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: signedAttributes(signer, identity.certificate, digest),
  })
  // RFC 5652 §5.4: the signature covers the DER of the attributes as a SET OF (tag 0x31), not
  // the [0] IMPLICIT tag they carry inside SignerInfo.
  const toSign = new Uint8Array(signedAttrs.toSchema().toBER())
  toSign[0] = 0x31
  return new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    digestAlgorithm: sha256(),
    signedAttrs,
    signatureAlgorithm: signatureAlgorithm(identity.privateKey),
    signature: new asn1js.OctetString({ valueHex: signAttributes(toSign) }),
  })
}

function contentInfoOf(identity: SealingIdentity, signerInfo: pkijs.SignerInfo): Uint8Array {
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256()],
    // No eContent: the signature is detached, the content is the PDF's byte range.
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: certificatesOf(identity).all,
    signerInfos: [signerInfo],
  })
  const contentInfo = new pkijs.ContentInfo({
    contentType: OID.signedData,
    content: signedData.toSchema(true),
  })
  return new Uint8Array(contentInfo.toSchema().toBER())
}

/** X.690 §11.6: DER orders the elements of a SET OF by their encodings (OpenSSL writes them so). */
function sortedByEncoding(encodings: readonly Uint8Array[]): Uint8Array[] {
  return [...encodings].sort((a, b) => Buffer.compare(a, b))
}

/** In DER order, as a SET OF (X.690 §11.6). */
function signedAttributes(
  signer: pkijs.Certificate,
  certificate: Uint8Array,
  digest: Uint8Array,
): pkijs.Attribute[] {
  const attributes = [
    new pkijs.Attribute({
      type: OID.contentType,
      values: [new asn1js.ObjectIdentifier({ value: OID.data })],
    }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
    new pkijs.Attribute({
      type: OID.signingCertificateV2,
      values: [signingCertificateV2(signer, certificate)],
    }),
  ]
  const encoded = attributes.map((attribute) => ({
    attribute,
    der: Buffer.from(attribute.toSchema().toBER()),
  }))
  return encoded.sort((a, b) => Buffer.compare(a.der, b.der)).map(({ attribute }) => attribute)
}

/**
 * RFC 5035 §3: SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }, and
 * ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial }. The
 * algorithm is left out because it is SHA-256: DER omits a value equal to its DEFAULT.
 */
function signingCertificateV2(signer: pkijs.Certificate, certificate: Uint8Array): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new pkijs.GeneralName({ type: 4, value: signer.issuer }).toSchema()] }),
      signer.serialNumber,
    ],
  })
  const certHash = new asn1js.OctetString({ valueHex: createHash('sha256').update(certificate).digest() })
  const essCertIdV2 = new asn1js.Sequence({ value: [certHash, issuerSerial] })
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })
}

/** RFC 5754 §2: the parameters of SHA-256 are absent. */
function sha256(): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })
}

/**
 * RFC 3370 §3.2: rsaEncryption (with NULL parameters) is the RSA identifier every CMS verifier must
 * accept; RFC 5758 §3.2: ecdsa-with-SHA256 with absent parameters.
 */
function signatureAlgorithm(key: KeyObject): pkijs.AlgorithmIdentifier {
  if (key.asymmetricKeyType === 'rsa') {
    return new pkijs.AlgorithmIdentifier({
      algorithmId: OID.rsaEncryption,
      algorithmParams: new asn1js.Null(),
    })
  }
  if (key.asymmetricKeyType === 'ec')
    return new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 })
  throw new Error(`a ${key.asymmetricKeyType} key cannot seal: RSA or ECDSA expected`)
}

/** RSA: the modulus length. ECDSA: the DER SEQUENCE of two INTEGERs r, s of the field size plus a sign octet. */
function maxSignatureLength(key: KeyObject): number {
  const details = key.asymmetricKeyDetails
  if (key.asymmetricKeyType === 'rsa') return Math.ceil((details?.modulusLength ?? 0) / 8)
  const field = EC_FIELD_BYTES[details?.namedCurve ?? '']
  if (field === undefined)
    throw new Error(`the curve ${details?.namedCurve} cannot seal: P-256, P-384 or P-521 expected`)
  const integers = 2 * (2 + field + 1)
  return integers + (integers > 127 ? 3 : 2)
}
