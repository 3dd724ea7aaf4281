// The final PDF of a submission (issue #11): every document's pages in order in one new PDF, the
// signed values drawn into their areas, and the SES footer on every page. Sealing (PAdES) happens
// afterwards on these bytes, so this ends with an ordinary pdf-lib save().
import { PDFDocument, type PDFFont } from 'pdf-lib'
import { embedFont } from './fonts.ts'
import { addFooters, sesFooter } from './footer.ts'
import { type Stamp, stampFields } from './stamp-fields.ts'

export interface DocumentStamp extends Stamp {
  /** 0-indexed position of the document in the submission (as stored areas count). */
  document: number
}

export interface FinalPdfInput {
  documents: Uint8Array[]
  /** `page` is 1-indexed within the stamp's own document. */
  stamps: DocumentStamp[]
  submissionId: string
  /** Where DejaVu lives; fonts.ts DEFAULT_FONT_DIR when absent. */
  fontDir?: string
}

/**
 * One new PDF holding every page of every document, in order, and where each document starts
 * (0-indexed page offsets). Documents are loaded one at a time and dropped once copied, so at most
 * one parsed source sits beside the growing result.
 */
export async function mergeDocuments(
  documents: Uint8Array[],
): Promise<{ doc: PDFDocument; offsets: number[] }> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setProducer('Paraph')
  const offsets: number[] = []
  for (const bytes of documents) {
    const source = await PDFDocument.load(bytes, { updateMetadata: false })
    offsets.push(doc.getPageCount())
    const pages = await doc.copyPages(source, source.getPageIndices())
    for (const page of pages) doc.addPage(page)
  }
  return { doc, offsets }
}

/** Stamps with their page made absolute in the merged document. */
export function mergedStamps(stamps: DocumentStamp[], offsets: number[], pageCounts: number[]): Stamp[] {
  return stamps.map(({ document, page, area, value }) => {
    const offset = offsets[document]
    if (offset === undefined) {
      throw new RangeError(`stamp on document ${document}, but the submission has ${offsets.length}`)
    }
    const count = pageCounts[document]!
    if (!(page >= 1 && page <= count)) {
      throw new RangeError(`stamp on page ${page} of document ${document}, which has ${count}`)
    }
    return { page: offset + page, area, value }
  })
}

/** Stamps and footers on a merged document, sharing one embedded font. */
export async function finishDocument(
  doc: PDFDocument,
  stamps: Stamp[],
  submissionId: string,
  font?: PDFFont,
): Promise<void> {
  const sans = font ?? (await embedFont(doc, 'sans'))
  await stampFields(doc, stamps, sans)
  addFooters(doc, sans, sesFooter(submissionId))
}

export async function buildFinalPdf(input: FinalPdfInput): Promise<Uint8Array> {
  const { doc, offsets } = await mergeDocuments(input.documents)
  const total = doc.getPageCount()
  const pageCounts = offsets.map((offset, i) => (offsets[i + 1] ?? total) - offset)
  const stamps = mergedStamps(input.stamps, offsets, pageCounts)
  await finishDocument(doc, stamps, input.submissionId, await embedFont(doc, 'sans', input.fontDir))
  return doc.save()
}
