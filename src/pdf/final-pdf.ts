// The final PDF of a submission (issue #11): every document's pages in order in one PDF, the signed
// values drawn into their areas, and the SES footer on every page. Sealing (PAdES) happens afterwards
// on these bytes, with the parsed document handed along so the seal need not parse them again.
import { type PDFDict, PDFDocument } from 'pdf-lib'
import { embedFont, type TextFont } from './fonts.ts'
import { addFooters, type FooterSegments, sesFooter } from './footer.ts'
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
  /** The footer on every page; the SES statement of the final PDF (sesFooter) when absent. */
  footer?: FooterSegments
  /** Where DejaVu lives; fonts.ts DEFAULT_FONT_DIR when absent. */
  fontDir?: string
}

/**
 * pdf-lib yields to the event loop (a setTimeout) every 50 objects by default; the finalizer is a
 * child process with nothing else to serve, so it writes in one go (a third of a 100-page save).
 */
export const SAVE_IN_ONE_GO = { objectsPerTick: Number.POSITIVE_INFINITY } as const

/**
 * Catalog entries the final PDF keeps from the first document. The rest goes, as it would when
 * copying pages into a new PDF: document-level scripts and actions (/OpenAction, /AA, /Names), the
 * source's interactive form (its values are drawn, not fillable), and structures that would only
 * describe the first document's pages (/Outlines, /PageLabels, /StructTreeRoot).
 */
const KEPT_CATALOG_KEYS = new Set(['Type', 'Pages', 'Lang', 'ViewerPreferences'])

/**
 * One PDF holding every page of every document, in order, and where each document starts (0-indexed
 * page offsets). The first document is the base, its pages kept in place (no copy of its largest
 * part); the others are loaded one at a time and copied in, so at most one parsed source sits
 * beside the result.
 */
export async function mergeDocuments(
  documents: Uint8Array[],
): Promise<{ doc: PDFDocument; offsets: number[] }> {
  const [first, ...others] = documents
  if (!first) throw new RangeError('a final PDF needs at least one document')
  const doc = await PDFDocument.load(first, { updateMetadata: false })
  keepOnly(doc.catalog, KEPT_CATALOG_KEYS)
  doc.setProducer('Paraph')
  const offsets = [0]
  for (const bytes of others) {
    const source = await PDFDocument.load(bytes, { updateMetadata: false })
    offsets.push(doc.getPageCount())
    const pages = await doc.copyPages(source, source.getPageIndices())
    for (const page of pages) doc.addPage(page)
  }
  return { doc, offsets }
}

function keepOnly(dict: PDFDict, keys: Set<string>): void {
  for (const key of dict.keys()) {
    if (!keys.has(key.decodeText())) dict.delete(key)
  }
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
  footer: FooterSegments,
  font?: TextFont,
): Promise<void> {
  const sans = font ?? (await embedFont(doc, 'sans'))
  await stampFields(doc, stamps, sans)
  addFooters(doc, sans, footer)
}

/**
 * The unsealed final PDF, and the document it was saved from: after save() its objects are numbered
 * as in `bytes`, which is what sealPdf needs to know of them.
 */
export async function buildFinalPdf(input: FinalPdfInput): Promise<{ bytes: Uint8Array; doc: PDFDocument }> {
  const { doc, offsets } = await mergeDocuments(input.documents)
  const total = doc.getPageCount()
  const pageCounts = offsets.map((offset, i) => (offsets[i + 1] ?? total) - offset)
  const stamps = mergedStamps(input.stamps, offsets, pageCounts)
  const footer = input.footer ?? sesFooter(input.submissionId)
  await finishDocument(doc, stamps, footer, await embedFont(doc, 'sans', input.fontDir))
  return { bytes: await doc.save(SAVE_IN_ONE_GO), doc }
}
