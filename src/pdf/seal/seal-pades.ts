// The PAdES B-B seal of final PDFs (ETSI EN 319 142-1): an incremental update adding an
// invisible signature field whose signature dictionary has /SubFilter /ETSI.CAdES.detached, the
// time of signing in /M, and in /Contents a CMS over the whole file but /Contents itself.
// With a time-stamping authority, B-T: the CMS carries its RFC 3161 signature time-stamp.
//
// Sealing must be the last write: any later save that is not incremental rewrites the file and
// breaks the seal. MuPDF adds the field and saves incrementally (docs/decisions/0001-pdf-engine.md),
// so the input stays the output's prefix and an earlier signature in it stays valid.
import { createHash } from 'node:crypto'
import type * as mupdf from 'mupdf'
import { LIMITS } from '../../limits.ts'
import { type OpenedPdf, openPdf } from '../read/mupdf-open.ts'
import {
  cadesSignedData,
  cadesSignedDataMaxLength,
  TIMESTAMP_ATTRIBUTE_OVERHEAD,
  type TimeStamper,
} from './cades-signed-data.ts'
import { addSignatureField } from './signature-field.ts'
import type { SealingIdentity } from './signing-certificate.ts'
import { requestTimestamp, type Timestamp, type TimestampAuthority } from './timestamp.ts'

export interface SealOptions {
  /** Written to /M, to the second: PAdES B-B keeps the claimed signing time there, not in the CMS. */
  signedAt: Date
  reason?: string
  location?: string
  /** /Name: the signer's name, for viewers that do not read it from the certificate. */
  name?: string
  contactInfo?: string
  /**
   * TSA_URL (docs/operations.md#configuration): PAdES B-T. Its failure fails the seal, never a seal
   * without it. `onTimestamp` hears of the token obtained, for the audit trail.
   */
  tsa?: TimestampAuthority & { onTimestamp?: (timestamp: Timestamp) => void }
}

/**
 * The /ByteRange placeholder: MuPDF stores integers in 32 bits, so the largest it writes stands in
 * for each unknown and the array is patched in place, padded with spaces, once the offsets are known
 * (files under 2 GiB, far above LIMITS).
 */
const PLACEHOLDER = 2147483647

/** Seals a PDF given as bytes: it must open without repair and not be encrypted. */
export async function sealPdf(
  pdf: Uint8Array,
  identity: SealingIdentity,
  options: SealOptions,
): Promise<Uint8Array> {
  let opened: OpenedPdf
  try {
    opened = openPdf(pdf)
  } catch (error) {
    throw new Error(`cannot seal: ${(error as Error).message}`)
  }
  const { doc, encrypted, repaired } = opened
  try {
    if (encrypted) throw new Error('cannot seal an encrypted PDF')
    if (repaired)
      throw new Error('cannot seal: the PDF is damaged (its cross-reference table had to be rebuilt)')
    return await sealDocument(doc, identity, options)
  } finally {
    doc.destroy()
  }
}

/**
 * Adds the seal to a document opened with MuPDF (with whatever else was changed in it) and saves it
 * incrementally: the seal covers the whole file, and the bytes the document was opened from stay
 * its prefix. Sealing must be the last write.
 */
export async function sealDocument(
  doc: mupdf.PDFDocument,
  identity: SealingIdentity,
  options: SealOptions,
): Promise<Buffer> {
  // A token is at most what the TSA may answer (LIMITS.tsaResponseBytes), checked as it arrives.
  const reserved =
    cadesSignedDataMaxLength(identity) +
    (options.tsa ? LIMITS.tsaResponseBytes + TIMESTAMP_ATTRIBUTE_OVERHEAD : 0)
  addSignatureField(doc, signatureDictionary(doc, options, reserved))
  const sealed = Buffer.from(doc.saveToBuffer('incremental').asUint8Array())
  const { byteRangeAt, byteRangeWidth, contentsStart } = placeholders(sealed, reserved)
  // ISO 32000-1 §12.8.1: the byte range is the whole file but the /Contents value, brackets included.
  const contentsEnd = contentsStart + 2 * reserved + 2
  const byteRange = `[0 ${contentsStart} ${contentsEnd} ${sealed.length - contentsEnd}]`
  if (byteRange.length > byteRangeWidth) throw new Error('the PDF is too large to seal')
  sealed.write(byteRange.padEnd(byteRangeWidth), byteRangeAt, 'latin1')
  const digest = createHash('sha256')
    .update(sealed.subarray(0, contentsStart))
    .update(sealed.subarray(contentsEnd))
    .digest()
  const cms = await cadesSignedData(identity, digest, options.tsa && timeStamper(options.tsa))
  if (cms.length > reserved) {
    throw new Error(`the seal's CMS (${cms.length} bytes) does not fit the ${reserved} bytes reserved for it`)
  }
  sealed.write(Buffer.from(cms).toString('hex'), contentsStart + 1, 'latin1')
  return sealed
}

/**
 * Where the writer put the two placeholders of the seal's dictionary: the last /ByteRange
 * placeholder in the file (the seal is the newest object) and the reserved /Contents in the same
 * object. Found in the output, not predicted from the writer's layout; searched from the end, so a
 * large original is not scanned.
 */
function placeholders(pdf: Buffer, reserved: number) {
  const values = pdf.lastIndexOf(`${PLACEHOLDER} ${PLACEHOLDER} ${PLACEHOLDER}`, undefined, 'latin1')
  const byteRangeAt = values === -1 ? -1 : pdf.lastIndexOf('[', values, 'latin1')
  const objectStart = byteRangeAt === -1 ? -1 : pdf.lastIndexOf(' obj', byteRangeAt, 'latin1')
  const near = pdf.toString('latin1', byteRangeAt, values + 40)
  const match = /^\[\s*0\s+2147483647\s+2147483647\s+2147483647\s*\]/.exec(near)
  if (objectStart === -1 || !match) {
    throw new Error("cannot seal: the signature's /ByteRange was not written as expected")
  }
  const objectEnd = pdf.indexOf('endobj', values, 'latin1')
  const contentsStart = pdf.indexOf(`<${'0'.repeat(2 * reserved)}>`, objectStart, 'latin1')
  if (contentsStart === -1 || objectEnd === -1 || contentsStart > objectEnd) {
    throw new Error("cannot seal: the signature's /Contents was not written as expected")
  }
  return { byteRangeAt, byteRangeWidth: match[0].length, contentsStart }
}

function timeStamper(tsa: NonNullable<SealOptions['tsa']>): TimeStamper {
  return async (signature) => {
    const timestamp = await requestTimestamp(tsa, signature)
    tsa.onTimestamp?.(timestamp)
    return timestamp.token
  }
}

/**
 * ISO 32000-1 §12.8.1 table 252. /Contents is reserved as zeros, which MuPDF writes as one hex
 * string (a CMS shorter than the reservation ends in zero padding, which DER parsers ignore).
 */
function signatureDictionary(
  doc: mupdf.PDFDocument,
  options: SealOptions,
  reserved: number,
): mupdf.PDFObject {
  const dict = doc.newDictionary()
  dict.put('Type', doc.newName('Sig'))
  dict.put('Filter', doc.newName('Adobe.PPKLite'))
  dict.put('SubFilter', doc.newName('ETSI.CAdES.detached'))
  dict.put('M', doc.newString(pdfDate(options.signedAt)))
  for (const [key, value] of [
    ['Name', options.name],
    ['Reason', options.reason],
    ['Location', options.location],
    ['ContactInfo', options.contactInfo],
  ] as const) {
    if (value !== undefined) dict.put(key, doc.newString(value))
  }
  dict.put('ByteRange', [0, PLACEHOLDER, PLACEHOLDER, PLACEHOLDER])
  dict.put('Contents', doc.newByteString(new Uint8Array(reserved)))
  return dict
}

/** ISO 32000-1 §7.9.4: D:YYYYMMDDHHmmSSZ, in UTC. */
export function pdfDate(date: Date): string {
  const iso = date.toISOString()
  return `D:${iso.slice(0, 19).replace(/[-T:]/g, '')}Z`
}
