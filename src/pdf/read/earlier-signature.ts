// Who signed, and when, as a signature dictionary (ISO 32000-1 §12.8.1) tells it: for a sentence in
// the audit trail about a signature found in a document. /Name is optional and often absent (so
// original-facts.ts's earlierSignatures may have no name to give); the signer's certificate in
// /Contents (a CMS SignedData, RFC 5652) always names its subject.
import * as asn1js from 'asn1js'
import type * as mupdf from 'mupdf'
import * as pkijs from 'pkijs'
import { isoOfPdfDate } from './original-facts.ts'

const COMMON_NAME = '2.5.4.3'

/** "Jane Doe, dated 2026-01-15T09:00:00.000Z"; "an unnamed signer" when nothing says who. */
export function describeSignature(signature: mupdf.PDFObject): string {
  const stated = signature.get('Name')
  const name =
    (stated.isString() && stated.asString().trim()) ||
    signerCommonName(signature.get('Contents')) ||
    'an unnamed signer'
  const time = signature.get('M')
  const when = time.isString() ? isoOfPdfDate(time.asString()) : null
  return when ? `${name}, dated ${when}` : name
}

/** The subject CN of the CMS's first signer's certificate; undefined for anything unreadable. */
function signerCommonName(contents: mupdf.PDFObject): string | undefined {
  if (!contents.isString()) return undefined
  try {
    const der = contents.asByteString()
    const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(der).result })
    const signed = new pkijs.SignedData({ schema: info.content })
    const sid = signed.signerInfos[0]?.sid
    const certificates = (signed.certificates ?? []).filter(
      (item): item is pkijs.Certificate => item instanceof pkijs.Certificate,
    )
    const certificate =
      certificates.find(
        (item) =>
          sid instanceof pkijs.IssuerAndSerialNumber &&
          item.serialNumber.isEqual(sid.serialNumber) &&
          item.issuer.isEqual(sid.issuer),
      ) ?? certificates[0]
    const cn = certificate?.subject.typesAndValues.find((entry) => entry.type === COMMON_NAME)
    return cn ? String(cn.value.valueBlock.value).trim() || undefined : undefined
  } catch {
    return undefined // a damaged or foreign CMS: the sentence does without a name
  }
}
