// Several documents of one submission in one final PDF, on MuPDF. The first
// document is the base and stays what it was: its objects are changed only through MuPDF, so an
// incremental save keeps its bytes as the prefix of the final and an earlier signature in it valid.
// Each other document's pages are grafted after it with their annotations, links and form fields;
// its outline goes under an item bearing its name, its fields under a field bearing its name, its
// layers into the merged layer list with their default states, its attached files into the merged
// list, and when both it and the first document are tagged, its structure tree beside the first's.
//
// Why pages are grafted with graftObject rather than graftPage: MuPDF's graftPage copies a page's
// contents, resources and boxes into a new dictionary the graft map does not know, and leaves its
// annotations behind. Grafting the (prepared) page object itself records it in the map, so every
// later reference to it — a widget's /P, a link's or an outline item's destination — lands on the
// copy, and nothing drags in the source's page tree (merge-source.ts cuts it loose first).
import type * as mupdf from 'mupdf'
import { certificationLevel } from '../read/original-facts.ts'
import { mergeAttachments } from './merge-attachments.ts'
import { type FormPart, mergeForms } from './merge-forms.ts'
import { mergeLayers } from './merge-layers.ts'
import { existingOutline, mergeOutlines, type OutlinePart } from './merge-outlines.ts'
import { mergePageLabels } from './merge-page-labels.ts'
import { prepareSource } from './merge-source.ts'
import { mergeTags, structureShift } from './merge-tags.ts'

export interface MergeSource {
  doc: mupdf.PDFDocument
  /** The document's name in the submission: outline title, form field name, audit-trail notes. */
  name: string
}

export interface MergeResult {
  /** 0-indexed page where each document starts in the merged document. */
  offsets: number[]
  /** What the merge could not keep, one sentence each, for the audit trail. */
  notes: string[]
}

/**
 * Appends every page of `others` to `base` (the first document, opened with openPdf), in place.
 * The documents in `others` are changed in memory on the way (merge-source.ts) and must not be
 * saved; what the merge took from them is copied, so they may be destroyed once it returns.
 * Nothing is written: the caller draws on `base.doc` and saves it incrementally.
 */
export function mergeDocuments(base: MergeSource, others: MergeSource[]): MergeResult {
  // One document is no merge: its outline, form and labels stay exactly as they are.
  if (others.length === 0) return { offsets: [0], notes: [] }
  const merged = base.doc
  if (!merged.getTrailer().get('Root').isDictionary()) {
    throw new Error(`document 1 (${base.name}) has no document catalog: nothing can be merged into it`)
  }
  const offsets = [0]
  const notes: string[] = []
  const outline: OutlinePart[] = [
    { title: base.name, firstPage: firstPage(merged, 0), first: existingOutline(merged) },
  ]
  const forms: FormPart[] = []
  const certified = certificationLevel(merged)
  if (certified !== undefined) {
    notes.push(
      `document 1 (${base.name}) is certified (DocMDP P=${certified}); adding the other documents' pages is a change its certification does not allow, so viewers report the certification as broken`,
    )
  }
  const inserted = new Set<number>()
  others.forEach((source, i) => {
    const position = i + 2
    const offset = merged.countPages()
    offsets.push(offset)
    const shift = structureShift(merged, source.doc)
    const prepared = prepareSource(source.doc, `document ${position} (${source.name})`, notes, shift)
    // One map per source: what its pages share (fonts, images) is copied once.
    const map = merged.newGraftMap()
    for (const page of prepared.pages) merged.insertPage(-1, once(merged, map.graftObject(page), inserted))
    if (shift !== undefined) mergeTags(merged, source.doc, source.name, map, shift)
    mergeLayers(merged, { name: source.name, properties: prepared.layers, map })
    mergeAttachments(merged, source.doc, source.name, map)
    const roots = prepared.fieldRoots.map((root) => map.graftObject(root))
    forms.push({ name: source.name, position, roots, acroForm: prepared.acroForm, map })
    const first = prepared.outlineFirst ? map.graftObject(prepared.outlineFirst) : undefined
    outline.push({ title: source.name, firstPage: firstPage(merged, offset), first, grafted: true })
  })
  mergeForms(merged, base.name, forms)
  mergeOutlines(merged, outline)
  mergePageLabels(
    merged,
    [base, ...others].map((source, i) => ({ doc: source.doc, offset: offsets[i]! })),
  )
  return { offsets, notes }
}

/**
 * A page object the source's page tree lists twice is grafted once: the second time it goes in as
 * a copy without annotations (an annotation belongs to one page), or the page tree would hold one
 * object twice.
 */
function once(doc: mupdf.PDFDocument, page: mupdf.PDFObject, inserted: Set<number>): mupdf.PDFObject {
  if (!inserted.has(page.asIndirect())) {
    inserted.add(page.asIndirect())
    return page
  }
  const copy = doc.newDictionary()
  page.forEach((value, key) => {
    if (key !== 'Annots' && key !== 'Parent') copy.put(key, value)
  })
  return doc.addObject(copy)
}

/** The page at `index` of the merged document, if the document that starts there has any. */
function firstPage(doc: mupdf.PDFDocument, index: number): mupdf.PDFObject | undefined {
  return index < doc.countPages() ? doc.findPage(index) : undefined
}
