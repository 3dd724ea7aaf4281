// Reads every page's boxes by walking the page tree ourselves (ISO 32000-1 §7.7.3), not with
// pdf-lib's getPages(), whose recursive traversal overflows the stack on a cyclic tree. The walk
// is iterative, refuses loops and deep nesting, and stops counting at a cap, so a hostile tree
// costs bounded work.
import { PDFArray, type PDFContext, PDFDict, PDFName, PDFNumber, type PDFObject } from 'pdf-lib'
import { LIMITS } from '../limits.ts'
import type { RawPage } from './inspector-protocol.ts'
import type { Rect } from './page-box.ts'

export const MAX_PAGES = LIMITS.pdfPages
// Past the limit we only count, to tell the client by how much; a forged /Kids listing millions
// of pages stops here.
const COUNT_CAP = 100_000
// Writers keep trees shallow: pdf-lib writes one level, and a balanced tree of ten kids per node
// holds 100 000 pages in five. Deeper than this is forged.
const MAX_DEPTH = 64

/** A reason the file cannot be read, worded to follow "the PDF could not be parsed: ". */
export class PageTreeError extends Error {}

export type PageTree = { ok: true; pages: RawPage[] } | { ok: false; pageCount: number; capped: boolean }

// §7.7.3.4: a page without these takes them from the nearest ancestor that has them.
const INHERITABLE = ['MediaBox', 'CropBox', 'Rotate'] as const
type Inherited = Partial<Record<(typeof INHERITABLE)[number], PDFObject>>

interface Visit {
  node: PDFDict
  inherited: Inherited
  depth: number
}

export function readPageTree(context: PDFContext, catalog: PDFDict | undefined): PageTree {
  const root = catalog && context.lookup(catalog.get(PDFName.of('Pages')))
  if (!(root instanceof PDFDict)) throw new PageTreeError('it has no page tree')
  const pages: RawPage[] = []
  const visited = new Set<PDFDict>()
  const stack: Visit[] = [{ node: root, inherited: {}, depth: 0 }]
  let pageCount = 0
  while (stack.length > 0) {
    const { node, inherited, depth } = stack.pop()!
    // A shared kid is as invalid as a cycle (each page has one /Parent): both end here.
    if (visited.has(node)) throw new PageTreeError('its page tree loops back on itself')
    visited.add(node)
    const attributes = inherit(node, inherited)
    const kids = context.lookup(node.get(PDFName.of('Kids')))
    if (isPagesNode(node, kids)) {
      if (depth >= MAX_DEPTH) throw new PageTreeError('its page tree is nested too deeply')
      if (!(kids instanceof PDFArray)) throw new PageTreeError('its page tree has a node without kids')
      // One push per kid: spreading a forged /Kids of a million entries would overflow the stack.
      for (const kid of kidsOf(context, kids))
        stack.push({ node: kid, inherited: attributes, depth: depth + 1 })
    } else if (++pageCount > COUNT_CAP) {
      return { ok: false, pageCount: COUNT_CAP, capped: true }
    } else if (pageCount <= MAX_PAGES) {
      pages.push(rawPage(context, attributes, pageCount))
    }
  }
  if (pageCount > MAX_PAGES) return { ok: false, pageCount, capped: false }
  if (pageCount === 0) throw new PageTreeError('it has no pages')
  return { ok: true, pages }
}

/** /Type decides; writers that omit it are read as pdf.js does: a node is what has /Kids. */
function isPagesNode(node: PDFDict, kids: PDFObject | undefined): boolean {
  const type = node.get(PDFName.of('Type'))
  if (type === PDFName.of('Pages')) return true
  if (type === PDFName.of('Page')) return false
  return kids !== undefined
}

/** Reversed, so popping the stack visits pages in document order. */
function kidsOf(context: PDFContext, kids: PDFArray): PDFDict[] {
  const nodes: PDFDict[] = []
  for (let i = kids.size() - 1; i >= 0; i--) {
    const kid = context.lookup(kids.get(i))
    if (!(kid instanceof PDFDict)) throw new PageTreeError('its page tree lists an object that is not a page')
    nodes.push(kid)
  }
  return nodes
}

function inherit(node: PDFDict, inherited: Inherited): Inherited {
  const own: Inherited = { ...inherited }
  for (const key of INHERITABLE) {
    const value = node.get(PDFName.of(key))
    if (value !== undefined) own[key] = value
  }
  return own
}

function rawPage(context: PDFContext, attributes: Inherited, number: number): RawPage {
  const mediaBox = rectOf(context, attributes.MediaBox)
  if (!mediaBox) throw new PageTreeError(`page ${number} has no valid MediaBox`)
  // A malformed CropBox or /Rotate is ignored, as viewers do: the page still shows.
  const cropBox = rectOf(context, attributes.CropBox)
  const rotate = numberOf(context, attributes.Rotate)
  return { mediaBox, ...(cropBox && { cropBox }), ...(rotate !== undefined && { rotate }) }
}

/** Numbers and the array itself may be indirect references. */
function rectOf(context: PDFContext, value: PDFObject | undefined): Rect | undefined {
  const array = context.lookup(value)
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined
  const numbers = array.asArray().map((item) => numberOf(context, item))
  const [a, b, c, d] = numbers
  if (a === undefined || b === undefined || c === undefined || d === undefined) return undefined
  return [a, b, c, d]
}

function numberOf(context: PDFContext, value: PDFObject | undefined): number | undefined {
  const number = context.lookup(value)
  return number instanceof PDFNumber && Number.isFinite(number.asNumber()) ? number.asNumber() : undefined
}
