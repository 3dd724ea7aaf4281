// The PAdES B-B seal of final PDFs (issue #11; ETSI EN 319 142-1): an incremental update adding an
// invisible signature field whose signature dictionary has /SubFilter /ETSI.CAdES.detached, the
// time of signing in /M, and in /Contents a CMS over the whole file but /Contents itself. Issue #21
// item 5: with a time-stamping authority, B-T: the CMS carries its RFC 3161 signature time-stamp.
//
// Sealing must be the last write: any later save of the file (pdf-lib's save() included) rewrites
// it and breaks the seal. The input may come from pdf-lib's save() with or without object streams,
// or be any unencrypted PDF; an earlier signature in it stays valid.
import { createHash } from 'node:crypto'
import { PDFDocument, PDFHexString } from 'pdf-lib'
import { LIMITS } from '../limits.ts'
import {
  cadesSignedData,
  cadesSignedDataMaxLength,
  TIMESTAMP_ATTRIBUTE_OVERHEAD,
  type TimeStamper,
} from './cades-signed-data.ts'
import { appendUpdate, readTail } from './incremental-update.ts'
import { signatureFieldObjects } from './signature-field.ts'
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
   * TSA_URL (operations.md §2): PAdES B-T. Its failure fails the seal, never a seal without it.
   * `onTimestamp` hears of the token obtained, for the audit trail.
   */
  tsa?: TimestampAuthority & { onTimestamp?: (timestamp: Timestamp) => void }
}

/** `[0 a b c]` with each number up to 10 digits (files under 10 GB), patched in place once known. */
const BYTE_RANGE_WIDTH = '[0 0000000000 0000000000 0000000000]'.length

/**
 * `parsed`, when given, is the document `pdf` was just saved from by pdf-lib (its objects numbered
 * as in the file): the seal then reads the page, catalog and form from it instead of parsing the
 * whole file again, and changes it in memory. Anything else is parsed from `pdf`.
 */
export async function sealPdf(
  pdf: Uint8Array,
  identity: SealingIdentity,
  options: SealOptions,
  parsed?: PDFDocument,
): Promise<Uint8Array> {
  const tail = readTail(pdf)
  if (tail.encrypted) throw new Error('cannot seal an encrypted PDF')
  const doc = parsed ?? (await loadForSealing(pdf))
  // Above every number in use, should /Size understate them.
  const firstFree = Math.max(tail.size, doc.context.largestObjectNumber + 1)
  // A token is at most what the TSA may answer (LIMITS.tsaResponseBytes), checked as it arrives.
  const reserved =
    cadesSignedDataMaxLength(identity) +
    (options.tsa ? LIMITS.tsaResponseBytes + TIMESTAMP_ATTRIBUTE_OVERHEAD : 0)
  const dictionary = signatureDictionary(options, reserved)
  const objects = signatureFieldObjects(doc, firstFree, dictionary.bytes)
  const { pdf: sealed, valueOffsets } = appendUpdate(pdf, tail, doc.context, objects)
  const at = valueOffsets.get(firstFree)!
  // ISO 32000-1 §12.8.1: the byte range is the whole file but the /Contents value, brackets included.
  const contentsStart = at + dictionary.contentsAt
  const contentsEnd = contentsStart + 2 * reserved + 2
  const byteRange = `[0 ${contentsStart} ${contentsEnd} ${sealed.length - contentsEnd}]`.padEnd(
    BYTE_RANGE_WIDTH,
  )
  sealed.write(byteRange, at + dictionary.byteRangeAt, 'latin1')
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

function timeStamper(tsa: NonNullable<SealOptions['tsa']>): TimeStamper {
  return async (signature) => {
    const timestamp = await requestTimestamp(tsa, signature)
    tsa.onTimestamp?.(timestamp)
    return timestamp.token
  }
}

async function loadForSealing(pdf: Uint8Array): Promise<PDFDocument> {
  try {
    // updateMetadata false: pdf-lib would otherwise change /Info in memory, which is not written
    // here, but nothing in the seal should differ from the file as given.
    return await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: true })
  } catch (error) {
    throw new Error(`cannot seal: ${(error as Error).message}`)
  }
}

/**
 * ISO 32000-1 §12.8.1 table 252, with the placeholders' positions. /Contents is reserved as zeros
 * (a CMS shorter than the reservation ends in zero padding, which DER parsers ignore).
 */
function signatureDictionary(options: SealOptions, reserved: number) {
  const text = (key: string, value: string | undefined) =>
    value === undefined ? '' : `/${key} ${PDFHexString.fromText(value).toString()}\n`
  const head = [
    '<<\n/Type /Sig\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.CAdES.detached\n',
    `/M (${pdfDate(options.signedAt)})\n`,
    text('Name', options.name),
    text('Reason', options.reason),
    text('Location', options.location),
    text('ContactInfo', options.contactInfo),
    '/ByteRange ',
  ].join('')
  const beforeContents = `${head}${'0'.repeat(BYTE_RANGE_WIDTH)}\n/Contents `
  const source = `${beforeContents}<${'0'.repeat(2 * reserved)}>\n>>`
  return { bytes: Buffer.from(source, 'latin1'), byteRangeAt: head.length, contentsAt: beforeContents.length }
}

/** ISO 32000-1 §7.9.4: D:YYYYMMDDHHmmSSZ, in UTC. */
export function pdfDate(date: Date): string {
  const iso = date.toISOString()
  return `D:${iso.slice(0, 19).replace(/[-T:]/g, '')}Z`
}
