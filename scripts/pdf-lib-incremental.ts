// Paraph's incremental writer on pdf-lib until issue #21 moved the seal to MuPDF; kept only as the
// "pdf-lib + own writer" candidate of scripts/pdf-engine-compare.mjs (docs/decisions/0001).
// ISO 32000-1 §7.5.6 incremental update: new and changed objects are appended with a cross-reference
// section for them and a trailer whose /Prev points at the previous section. The original bytes stay
// as they were, so a seal can be added to any PDF (object streams or not) and an earlier signature
// stays valid. pdf-lib parses; its object and cross-reference writers serialise.
import {
  PDFContext,
  PDFCrossRefSection,
  PDFCrossRefStream,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib'

/** The last cross-reference section of a file, which the update follows. */
export interface PdfTail {
  /** Its offset, from `startxref`: the update's /Prev. */
  prev: number
  /** Its trailer's /Size: new objects are numbered from here. */
  size: number
  /**
   * Whether it is a cross-reference stream (PDF 1.5, §7.5.8). The update's section is of the same
   * kind, so it asks no more of a reader than the file already did.
   */
  stream: boolean
  /** The trailer has /Encrypt (§7.6): objects written in clear would not be read. */
  encrypted: boolean
}

/** An indirect object to write: a pdf-lib object, or bytes written as they are. */
export interface UpdateObject {
  ref: PDFRef
  value: PDFObject | Uint8Array
}

const encoder = new TextEncoder()

export function readTail(pdf: Uint8Array): PdfTail {
  const context = PDFContext.create()
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  // §7.5.5: the file ends with startxref, the offset, and %%EOF; some writers add junk after it.
  const end = bytes.toString('latin1', Math.max(0, bytes.length - 4096))
  const match = /^startxref\s+(\d+)\s+%%EOF/.exec(end.slice(end.lastIndexOf('startxref')))
  const prev = Number(match?.[1] ?? Number.NaN)
  if (!match || prev >= bytes.length)
    throw new Error('cannot seal: the PDF does not end with startxref and %%EOF')
  const head = bytes.toString('latin1', prev, prev + 32)
  if (head.startsWith('xref')) {
    const trailer = bytes.indexOf('trailer', prev, 'latin1')
    if (trailer === -1) throw new Error('cannot seal: the PDF has a cross-reference table without trailer')
    const dict = PDFObjectParser.forBytes(bytes.subarray(trailer + 7), context).parseObject()
    return { prev, ...trailerFacts(dict), stream: false }
  }
  const header = /^(\d+)\s+(\d+)\s+obj/.exec(head)
  if (!header) throw new Error('cannot seal: startxref does not point at a cross-reference section')
  const object = PDFObjectParser.forBytes(bytes.subarray(prev + header[0].length), context).parseObject()
  return { prev, ...trailerFacts(object instanceof PDFRawStream ? object.dict : object), stream: true }
}

function trailerFacts(trailer: PDFObject): { size: number; encrypted: boolean } {
  const dict = trailer instanceof PDFDict ? trailer : undefined
  const size = dict?.get(PDFName.of('Size'))
  if (!(size instanceof PDFNumber)) throw new Error('cannot seal: the last trailer has no /Size')
  return { size: size.asNumber(), encrypted: dict?.has(PDFName.of('Encrypt')) ?? false }
}

/**
 * Returns the file with `objects` appended, and where each object's value starts in it (by object
 * number), so the caller can patch bytes it reserved inside one of them.
 */
export function appendUpdate(
  pdf: Uint8Array,
  tail: PdfTail,
  context: PDFContext,
  objects: UpdateObject[],
): { pdf: Buffer; valueOffsets: Map<number, number> } {
  const sorted = [...objects].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber)
  const chunks: Uint8Array[] = [pdf]
  let length = pdf.length
  const push = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk
    chunks.push(bytes)
    length += bytes.length
  }
  if (pdf[pdf.length - 1] !== 0x0a && pdf[pdf.length - 1] !== 0x0d) push('\n')
  const objectOffsets: Array<[PDFRef, number]> = []
  const valueOffsets = new Map<number, number>()
  for (const { ref, value } of sorted) {
    objectOffsets.push([ref, length])
    push(`${ref.objectNumber} ${ref.generationNumber} obj\n`)
    valueOffsets.set(ref.objectNumber, length)
    push(value instanceof Uint8Array ? value : bytesOf(value))
    push('\nendobj\n')
  }
  const last = sorted.at(-1)?.ref.objectNumber ?? 0
  const size = Math.max(tail.size, last + 1)
  const xrefOffset = length
  if (tail.stream) push(crossReferenceStream(context, tail, objectOffsets, size, xrefOffset))
  else push(crossReferenceTable(context, tail, objectOffsets, size))
  push(`startxref\n${xrefOffset}\n%%EOF\n`)
  return { pdf: Buffer.concat(chunks, length), valueOffsets }
}

/**
 * The stream is an indirect object too and lists itself, as pdf-lib's writer does: it takes the
 * next number, and /Size grows by one.
 */
function crossReferenceStream(
  context: PDFContext,
  tail: PdfTail,
  offsets: Array<[PDFRef, number]>,
  size: number,
  xrefOffset: number,
): Uint8Array {
  const ref = PDFRef.of(size)
  const stream = PDFCrossRefStream.of(trailerDict(context, tail, size + 1), [], true)
  for (const [objectRef, offset] of offsets) stream.addUncompressedEntry(objectRef, offset)
  stream.addUncompressedEntry(ref, xrefOffset)
  return Buffer.concat([
    encoder.encode(`${ref.objectNumber} 0 obj\n`),
    bytesOf(stream),
    encoder.encode('\nendobj\n'),
  ])
}

function crossReferenceTable(
  context: PDFContext,
  tail: PdfTail,
  offsets: Array<[PDFRef, number]>,
  size: number,
): Uint8Array {
  const section = PDFCrossRefSection.createEmpty()
  for (const [ref, offset] of offsets) section.addEntry(ref, offset)
  const trailer = trailerDict(context, tail, size)
  return Buffer.concat([
    bytesOf(section),
    encoder.encode('trailer\n'),
    bytesOf(trailer),
    encoder.encode('\n'),
  ])
}

/** §7.5.6: the update's trailer repeats the previous one's entries, with /Prev added. */
function trailerDict(context: PDFContext, tail: PdfTail, size: number): PDFDict {
  const { Root, Info, ID } = context.trailerInfo
  const dict = context.obj({ Size: size, Prev: tail.prev })
  if (Root) dict.set(PDFName.of('Root'), Root)
  if (Info) dict.set(PDFName.of('Info'), Info)
  if (ID) dict.set(PDFName.of('ID'), ID)
  return dict
}

function bytesOf(object: {
  sizeInBytes(): number
  copyBytesInto(buffer: Uint8Array, offset: number): number
}) {
  const bytes = new Uint8Array(object.sizeInBytes())
  object.copyBytesInto(bytes, 0)
  return bytes
}
