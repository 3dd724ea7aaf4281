// Opening an untrusted PDF with MuPDF (docs/decisions/0001-pdf-engine.md), shared by intake (which
// measures pages and refuses what cannot be signed) and the finalizer (which signs the original):
// both must see the same pages with the same boxes. MuPDF repairs what it can on opening and tries
// the empty user password itself, as every viewer does.
import * as mupdf from 'mupdf'
import type { RawPage } from './inspector-protocol.ts'
import type { Rect } from './page-box.ts'

/** The document needs a password that is not empty: nobody but its author can open it. */
export class PdfPasswordError extends Error {
  override readonly name = 'PdfPasswordError'
  constructor() {
    super('the PDF is protected by a password')
  }
}

export interface OpenedPdf {
  doc: mupdf.PDFDocument
  /** The file is encrypted (opened with the empty user password). */
  encrypted: boolean
  /** MuPDF had to rebuild its cross-reference table: the file as written is damaged. */
  repaired: boolean
}

/** Throws PdfPasswordError for a password-protected file, mupdf's own error for an unreadable one. */
export function openPdf(bytes: Uint8Array): OpenedPdf {
  const doc = new mupdf.PDFDocument(bytes)
  if (doc.needsPassword() && !doc.authenticatePassword('')) {
    doc.destroy()
    throw new PdfPasswordError()
  }
  // An /Encrypt that is not a dictionary encrypts nothing (issue #21: such a file was refused), but
  // it is damage: qpdf refuses the file, so a final must be the file rewritten without it.
  const encryptEntry = doc.getTrailer().get('Encrypt')
  const encrypted = encryptEntry.isDictionary()
  const bogusEncrypt = !encrypted && !encryptEntry.isNull()
  const mended = mendPageTreeRoot(doc)
  return { doc, encrypted, repaired: doc.wasRepaired() || bogusEncrypt || mended }
}

/**
 * A page tree whose root is a Page is one page to poppler and qpdf, and none to MuPDF:
 * the root is put under a new Pages node, in memory only. True when it did so: the file as written
 * is damaged, and a final made from it is the repaired file, never an update of the original.
 */
function mendPageTreeRoot(doc: mupdf.PDFDocument): boolean {
  const root = doc.getTrailer().get('Root', 'Pages')
  if (!root.isDictionary() || !root.get('Type').isName() || root.get('Type').asName() !== 'Page') return false
  const page = root.isIndirect() ? root : doc.addObject(root)
  // mupdf reads a JS string as a name.
  const node = doc.addObject({ Type: 'Pages', Kids: [page], Count: 1 })
  page.put('Parent', node)
  doc.getTrailer().get('Root').put('Pages', node)
  return true
}

/** ISO 32000-1 §7.7.3.3: a page without a MediaBox is shown as US Letter by MuPDF and pdf.js alike. */
const DEFAULT_MEDIA_BOX: Rect = [0, 0, 612, 792]

/** Four finite numbers, or undefined for anything else (a missing or malformed box). */
export function rectOf(object: mupdf.PDFObject): Rect | undefined {
  if (!object.isArray() || object.length !== 4) return undefined
  const values: number[] = []
  for (let i = 0; i < 4; i++) {
    const item = object.get(i)
    if (!item.isNumber()) return undefined
    values.push(item.asNumber())
  }
  return values.every(Number.isFinite) ? (values as unknown as Rect) : undefined
}

/** A page's boxes and rotation as written, with the entries it inherits from its ancestors. */
export function rawPage(page: mupdf.PDFObject): RawPage {
  const mediaBox = rectOf(page.getInheritable('MediaBox')) ?? DEFAULT_MEDIA_BOX
  const cropBox = rectOf(page.getInheritable('CropBox'))
  const rotate = page.getInheritable('Rotate')
  return {
    mediaBox,
    ...(cropBox ? { cropBox } : {}),
    ...(rotate.isNumber() ? { rotate: rotate.asNumber() } : {}),
  }
}
