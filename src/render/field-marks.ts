// Turns Chromium's printed PDF into Paraph's: exact page boxes, and the field markers' boxes read
// out of it. Chromium keeps every `<a href>` as a Link annotation whose /Rect is the element's box
// on its page, so the HTML's field markers (empty inline-block links to
// `https://fields.paraph.invalid/{nonce}/{index}`) come back as annotations: each becomes a mark
// and is removed with its objects, so no marker URI is left in the bytes. Links the author wrote
// stay. Pure pdf-lib, bytes in → bytes out; it runs in the server process because the input is
// Chromium's own output (small dictionaries, streams never decoded), not an uploaded file.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFPage,
  PDFRef,
  PDFString,
} from 'pdf-lib'

/** A marker's box on its page: points, origin at the page's top-left corner, y downward. */
export interface FieldMark {
  index: number
  /** 1-indexed. */
  page: number
  x: number
  y: number
  w: number
  h: number
}

export interface PageSize {
  width: number
  height: number
}

/** docs/api.md#field-areas reference sizes, portrait, in points. */
export const PAGE_SIZES = {
  A4: { width: 595, height: 842 },
  Letter: { width: 612, height: 792 },
} as const satisfies Record<string, PageSize>

export type PageFormat = keyof typeof PAGE_SIZES

// Chromium writes a MediaBox of 594.96 × 841.92 (its page size rounded to device pixels); any box
// it or a later tool adds is set to the same exact size.
const BOXES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'] as const

/** Sets every box of every page to exactly `size`, origin 0 0. */
export function setPageBoxes(doc: PDFDocument, size: PageSize): void {
  for (const page of doc.getPages()) {
    for (const box of BOXES) {
      if (box === 'MediaBox' || page.node.get(PDFName.of(box))) {
        page.node.set(PDFName.of(box), doc.context.obj([0, 0, size.width, size.height]))
      }
    }
  }
}

/**
 * Reads and removes every Link annotation whose URI starts with `prefix`; returns a mark for each
 * whose rest is a decimal index, sorted by index (then page). Call after setPageBoxes: y is
 * measured from the top of the final MediaBox.
 */
export function takeFieldMarks(doc: PDFDocument, prefix: string): FieldMark[] {
  const marks: FieldMark[] = []
  doc.getPages().forEach((page, i) => {
    marks.push(...takePageMarks(doc, page, i + 1, prefix))
  })
  return marks.sort((a, b) => a.index - b.index || a.page - b.page)
}

function takePageMarks(doc: PDFDocument, page: PDFPage, pageNumber: number, prefix: string): FieldMark[] {
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)
  if (!annots) return []
  const top = page.getMediaBox().y + page.getMediaBox().height
  const marks: FieldMark[] = []
  const kept = []
  for (const entry of annots.asArray()) {
    const annot = doc.context.lookupMaybe(entry, PDFDict)
    const uri = annot && linkUri(doc, annot)
    if (!annot || uri === undefined || !uri.startsWith(prefix)) {
      kept.push(entry)
      continue
    }
    const index = uri.slice(prefix.length)
    const rect = annot.lookupMaybe(PDFName.of('Rect'), PDFArray)
    if (/^\d{1,9}$/.test(index) && rect) marks.push(toMark(doc, rect, Number(index), pageNumber, top))
    forget(doc, annot.get(PDFName.of('A')))
    forget(doc, entry)
  }
  if (marks.length === 0 && kept.length === annots.size()) return marks
  // An indirect /Annots array is replaced by a direct one: the old object goes too.
  forget(doc, page.node.get(PDFName.of('Annots')))
  if (kept.length === 0) page.node.delete(PDFName.of('Annots'))
  else page.node.set(PDFName.of('Annots'), doc.context.obj(kept))
  return marks
}

function linkUri(doc: PDFDocument, annot: PDFDict): string | undefined {
  if (annot.get(PDFName.of('Subtype')) !== PDFName.of('Link')) return undefined
  const action = annot.lookupMaybe(PDFName.of('A'), PDFDict)
  const uri = action?.get(PDFName.of('URI'))
  const value = uri instanceof PDFRef ? doc.context.lookup(uri) : uri
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined
}

/** PDF /Rect (bottom-left origin, corners in any order) → top-left box. */
function toMark(doc: PDFDocument, rect: PDFArray, index: number, page: number, top: number): FieldMark {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = rect
    .asArray()
    .map((n) => doc.context.lookupMaybe(n, PDFNumber)?.asNumber() ?? 0)
  const round = (n: number) => Math.round(n * 100) / 100
  return {
    index,
    page,
    x: round(Math.min(x1, x2)),
    y: round(top - Math.max(y1, y2)),
    w: round(Math.abs(x2 - x1)),
    h: round(Math.abs(y2 - y1)),
  }
}

/** Deletes an indirect object, so its bytes (the marker URI) are not written out. */
function forget(doc: PDFDocument, value: unknown): void {
  if (value instanceof PDFRef) doc.context.delete(value)
}

/** Loads Chromium's PDF without touching its metadata (no pdf-lib producer or dates). */
export function loadPrinted(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, { updateMetadata: false })
}
