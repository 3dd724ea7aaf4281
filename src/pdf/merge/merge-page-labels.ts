// Page labels of a merged document ("iii", "A-2": what a viewer shows as the page number). When any
// document has labels, each document's pages keep the labels they had alone, and a document without
// them is numbered 1, 2, … from its own first page, as it was when it was signed; otherwise the
// merged document gets none and viewers count pages plainly.
import * as mupdf from 'mupdf'
import { readNumberTree } from './pdf-trees.ts'

export interface LabelPart {
  doc: mupdf.PDFDocument
  /** 0-indexed page where the document starts in the merged document. */
  offset: number
}

interface LabelRange {
  start: number
  style: string
  prefix: string
  first: number
}

const STYLES = new Set(['D', 'R', 'r', 'A', 'a'])

/** `parts[0]` is the base: its labels are already in place. */
export function mergePageLabels(merged: mupdf.PDFDocument, parts: LabelPart[]): void {
  const ranges = parts.map((part) => labelRanges(part.doc))
  if (ranges.every((list) => list.length === 0)) return
  if (ranges[0]!.length === 0) merged.setPageLabels(0, 'D')
  parts.slice(1).forEach((part, i) => {
    const own = ranges[i + 1]!
    if (own.length === 0 || own[0]!.start !== 0) merged.setPageLabels(part.offset, 'D')
    for (const range of own)
      merged.setPageLabels(part.offset + range.start, range.style, range.prefix, range.first)
  })
}

/** The /PageLabels number tree (ISO 32000-1 §12.4.2) as ranges within the document, in order. */
function labelRanges(doc: mupdf.PDFDocument): LabelRange[] {
  const pages = doc.countPages()
  return [...readNumberTree(doc.getTrailer().get('Root').get('PageLabels'))]
    .filter(([start]) => start >= 0 && start < pages)
    .map(([start, label]) => rangeOf(start, label))
}

function rangeOf(start: number, label: mupdf.PDFObject): LabelRange {
  const style = label.get('S')
  const prefix = label.get('P')
  const first = label.get('St')
  return {
    start,
    style: style.isName() && STYLES.has(style.asName()) ? style.asName() : mupdf.PDFDocument.PAGE_LABEL_NONE,
    prefix: prefix.isString() ? prefix.asString() : '',
    first: first.isInteger() && first.asNumber() >= 1 ? first.asNumber() : 1,
  }
}
