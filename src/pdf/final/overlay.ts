// What Paraph adds to a signed document's pages — the values and the footer — drawn with pdf-lib on
// a document of its own whose pages have the original pages' boxes and rotation, so every drawing
// lands where it would on the original page. graft-overlay.ts then places each overlay page on its
// original page with MuPDF: the original is never parsed or rewritten by pdf-lib.
import { deflateSync } from 'node:zlib'
import { PDFArray, PDFContentStream, PDFDocument, PDFName, PDFNumber, PDFRef } from 'pdf-lib'
import type { RawPage } from '../read/inspector-protocol.ts'
import { embedFont, type TextFont } from '../text/fonts.ts'
import { addFooters, type FooterSegments } from './footer.ts'
import { type Stamp, stampFields } from './stamp-fields.ts'

/**
 * pdf-lib yields to the event loop (a setTimeout) every 50 objects by default; the finalizer is a
 * child process with nothing else to serve, so it writes in one go (a third of a 100-page save).
 */
export const SAVE_IN_ONE_GO = { objectsPerTick: Number.POSITIVE_INFINITY } as const

/** Stamps and footers on a document, sharing one embedded font. */
export async function finishDocument(
  doc: PDFDocument,
  stamps: Stamp[],
  footer: FooterSegments,
  font?: TextFont,
  fontDir?: string,
): Promise<void> {
  const sans = font ?? (await embedFont(doc, 'sans', fontDir))
  await stampFields(doc, stamps, sans)
  addFooters(doc, sans, footer)
}

export interface OverlayInput {
  /** The original pages' boxes and rotation, in order. */
  pages: RawPage[]
  /** `page` is 1-indexed among `pages`. */
  stamps: Stamp[]
  footer: FooterSegments
  fontDir?: string
}

/** One overlay page per original page, as a PDF: page i's content is what goes on page i. */
export async function drawOverlay(input: OverlayInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  for (const { mediaBox, cropBox, rotate } of input.pages) {
    const page = doc.addPage()
    // The boxes as written (corners in any order), so page-space.ts reads what intake measured.
    page.node.set(PDFName.of('MediaBox'), doc.context.obj([...mediaBox]))
    if (cropBox) page.node.set(PDFName.of('CropBox'), doc.context.obj([...cropBox]))
    if (rotate !== undefined) page.node.set(PDFName.of('Rotate'), PDFNumber.of(rotate))
  }
  await finishDocument(doc, input.stamps, input.footer, undefined, input.fontDir)
  // The overlay is read back by MuPDF at once, so compressing its page content (pdf-lib deflates
  // every content stream with pako, a third of a 100-page overlay's time) is wasted work.
  eachContentStream(doc, (stream) => {
    ;(stream as unknown as { encode: boolean }).encode = false
    stream.dict.delete(PDFName.of('Filter'))
  })
  return doc.save({ ...SAVE_IN_ONE_GO, useObjectStreams: false })
}

/** Every page's content streams drawn with pdf-lib (each is an indirect object), with its ref. */
function eachContentStream(doc: PDFDocument, visit: (stream: PDFContentStream, ref: PDFRef) => void): void {
  for (const page of doc.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'))
    const items = contents instanceof PDFArray ? contents.asArray() : [contents]
    for (const item of items) {
      const stream = item instanceof PDFRef ? doc.context.lookup(item) : undefined
      if (item instanceof PDFRef && stream instanceof PDFContentStream) visit(stream, item)
    }
  }
}

/**
 * Before a save: each page's content compressed by node's zlib rather than by pdf-lib's pako,
 * three to four times slower (a fifth of the audit trail's time).
 */
export function compressContentNatively(doc: PDFDocument): void {
  eachContentStream(doc, (stream, ref) => {
    const compressed = deflateSync(stream.getUnencodedContents())
    doc.context.assign(ref, doc.context.stream(compressed, { Filter: 'FlateDecode' }))
  })
}
