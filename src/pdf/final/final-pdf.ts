// The final PDF of a submission: the original signed, not a copy of it. The
// first document is opened with MuPDF; the other documents' pages are appended to it; the values and
// the SES footer are drawn on an overlay and placed on each page (graft-overlay.ts); the form's
// fields are made read-only. The caller then seals the document (seal-pades.ts sealDocument) or
// saves it as it stands: both save incrementally, so a document that needed no repair and was not
// encrypted is the exact prefix of the file made from it, and an earlier signature stays valid.
import { createHash } from 'node:crypto'
import * as mupdf from 'mupdf'
import type { AuditDocumentFacts } from '../audit/audit-record.ts'
import { mergeDocuments } from '../merge/merge-documents.ts'
import { openPdf, PdfPasswordError, rawPage } from '../read/mupdf-open.ts'
import { certificationLevel, earlierSignatures, makeFieldsReadOnly } from '../read/original-facts.ts'
import { FinalPdfError } from './final-pdf-error.ts'
import type { FooterSegments } from './footer.ts'
import { sesFooter } from './footer.ts'
import { graftOverlay } from './graft-overlay.ts'
import { drawOverlay } from './overlay.ts'
import type { Stamp } from './stamp-fields.ts'

export interface DocumentStamp extends Stamp {
  /** 0-indexed position of the document in the submission (as stored areas count). */
  document: number
}

export interface FinalPdfInput {
  documents: Uint8Array[]
  /** `page` is 1-indexed within the stamp's own document. */
  stamps: DocumentStamp[]
  submissionId: string
  /** The documents' names, in order: each one's outline item and field group in a merged PDF. */
  names?: string[]
  /** The footer on every page; the SES statement of the final PDF (sesFooter) when absent. */
  footer?: FooterSegments
  /** The root of the font folders (Debian's /usr/share/fonts); fonts.ts's default when absent. */
  fontDir?: string
}

/** What the audit trail says of each document as it went into the final PDF. */
export type DocumentFacts = AuditDocumentFacts

/** The final document, changed in memory and not yet saved. The caller destroys `doc`. */
export interface FinalDocument {
  doc: mupdf.PDFDocument
  facts: DocumentFacts[]
  /** What merging several documents could not keep, one sentence each, for the audit trail. */
  notes: string[]
  pageCount: number
  /** The bytes the incremental save will start with: the first document, or what replaced it. */
  prefix: Uint8Array
}

/** ISO 32000-1 Annex C: 8 388 607 indirect objects at most; MuPDF would number new ones past 2^31. */
const MAX_OBJECT_NUMBER = 8_388_607

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Opens a document for signing and reads its facts. `rewrite`: when it cannot be saved
 * incrementally as it is (encrypted, repaired, objects numbered beyond what readers accept), it is
 * rewritten once — decrypted, repaired and renumbered — and reopened, so the final PDF is an
 * incremental update of that rewrite. Documents merged after the first are never saved, so they
 * are not rewritten.
 */
export function openForSigning(
  bytes: Uint8Array,
  position: number,
  rewrite = true,
): { doc: mupdf.PDFDocument; facts: DocumentFacts; base: Uint8Array } {
  let opened: ReturnType<typeof openPdf>
  try {
    opened = openPdf(bytes)
  } catch (error) {
    if (error instanceof PdfPasswordError) {
      throw new FinalPdfError(`document ${position + 1} is protected by a password, so it cannot be signed`)
    }
    throw new FinalPdfError(`document ${position + 1} could not be read as a PDF`, (error as Error).message)
  }
  let { doc } = opened
  const certification = certificationLevel(doc) ?? null
  if (certification === 1) {
    doc.destroy()
    throw new FinalPdfError(
      `document ${position + 1} is certified by its author against any change, so it cannot be signed without breaking that certification`,
    )
  }
  const signatures = earlierSignatures(doc)
  const needed =
    rewrite &&
    (opened.encrypted ||
      opened.repaired ||
      doc.countObjects() > MAX_OBJECT_NUMBER ||
      !doc.canBeSavedIncrementally())
  let base = bytes
  if (needed) {
    base = doc.saveToBuffer('encrypt=none,garbage=compact').asUint8Array().slice()
    doc.destroy()
    doc = new mupdf.PDFDocument(base)
  }
  const facts: DocumentFacts = {
    encrypted: opened.encrypted,
    repaired: opened.repaired,
    rewritten_sha256: needed ? sha256(base) : null,
    certification,
    signatures,
  }
  return { doc, facts, base }
}

/**
 * The first document with every other one appended (merge-documents.ts: outlines under each
 * document's name, forms kept with unique names), each document's first page index, their facts,
 * and what the merge could not keep.
 */
function openDocuments(documents: Uint8Array[], names: string[]) {
  const [first, ...others] = documents
  if (!first) throw new RangeError('a final PDF needs at least one document')
  const nameOf = (i: number) => names[i] ?? `document ${i + 1}`
  const { doc, facts, base } = openForSigning(first, 0)
  const sources: Array<{ doc: mupdf.PDFDocument; name: string }> = []
  try {
    const allFacts = [facts]
    for (const [i, bytes] of others.entries()) {
      const source = openForSigning(bytes, i + 1, false)
      sources.push({ doc: source.doc, name: nameOf(i + 1) })
      allFacts.push(source.facts)
    }
    const { offsets, notes } = mergeDocuments({ doc, name: nameOf(0) }, sources)
    return { doc, offsets, facts: allFacts, notes, base }
  } catch (error) {
    doc.destroy()
    throw error
  } finally {
    for (const source of sources) source.doc.destroy()
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

/** The final document with the values and footers on its pages and its fields read-only. */
export async function buildFinalDocument(input: FinalPdfInput): Promise<FinalDocument> {
  const { doc, offsets, facts, notes, base } = openDocuments(input.documents, input.names ?? [])
  try {
    const total = doc.countPages()
    const pageCounts = offsets.map((offset, i) => (offsets[i + 1] ?? total) - offset)
    const pages = Array.from({ length: total }, (_, i) => rawPage(doc.findPage(i)))
    const overlay = await drawOverlay({
      pages,
      stamps: mergedStamps(input.stamps, offsets, pageCounts),
      footer: input.footer ?? sesFooter(input.submissionId),
      ...(input.fontDir !== undefined ? { fontDir: input.fontDir } : {}),
    })
    // A certification allowing form filling (2) or annotations (3) forbids new page content: the
    // overlay goes into locked annotations, and the fields are left as the certification has them.
    const certified = facts.some((f) => f.certification !== null)
    graftOverlay(doc, overlay, certified ? 'annotation' : 'content')
    if (!certified) {
      makeFieldsReadOnly(doc)
      removeDocumentScripts(doc)
    }
    return { doc, facts, notes, pageCount: total, prefix: base }
  } catch (error) {
    doc.destroy()
    throw error
  }
}

/**
 * Scripts that run when the signed document is opened could change what it shows (a known way to
 * make a signed PDF display other content): the final PDF drops the document's JavaScript actions
 * (ISO 32000-1 §12.6.4.16) from the catalog in its own update. Navigation actions stay.
 */
function removeDocumentScripts(doc: mupdf.PDFDocument): void {
  const catalog = doc.getTrailer().get('Root')
  const open = catalog.get('OpenAction')
  if (open.isDictionary() && open.get('S').isName() && open.get('S').asName() === 'JavaScript') {
    catalog.delete('OpenAction')
  }
  if (!catalog.get('AA').isNull()) catalog.delete('AA')
  const names = catalog.get('Names')
  if (names.isDictionary() && !names.get('JavaScript').isNull()) names.delete('JavaScript')
}

/** The final document saved unsealed (the document as it stands). */
export async function buildFinalPdf(
  input: FinalPdfInput,
): Promise<{ bytes: Uint8Array; facts: DocumentFacts[] }> {
  const final = await buildFinalDocument(input)
  try {
    return { bytes: final.doc.saveToBuffer('incremental').asUint8Array().slice(), facts: final.facts }
  } finally {
    final.doc.destroy()
  }
}

/**
 * A finalization checks its own output before the submission is completed: the file opens without
 * repair, has every page, and starts with the bytes it was made from.
 */
export function checkFinalPdf(bytes: Uint8Array, final: Pick<FinalDocument, 'pageCount' | 'prefix'>): void {
  const fail = (what: string): never => {
    throw new FinalPdfError(`the final PDF failed its own check (${what}); it was not kept`)
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, final.prefix.length))
  if (bytes.length <= final.prefix.length || !head.equals(final.prefix)) {
    fail('the original is not its prefix')
  }
  let doc: mupdf.PDFDocument
  try {
    doc = new mupdf.PDFDocument(bytes)
  } catch (error) {
    fail(`it does not open (${(error as Error).message})`)
    return
  }
  try {
    if (doc.wasRepaired()) fail('it opens only after repair')
    if (doc.countPages() !== final.pageCount) fail(`it has ${doc.countPages()} pages, not ${final.pageCount}`)
  } finally {
    doc.destroy()
  }
}
