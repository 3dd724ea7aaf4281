// A document about to be merged into another (merge-documents.ts), made ready for grafting. MuPDF's
// graft map copies an object with everything it references, mapping each source object once. So the
// source is first cut loose where a reference would drag in what the merge must not carry: a page's
// /Parent (the whole page tree), an outline item's /SE (the structure tree), a signature's /V (a
// signature over other bytes), scripts. What is left references only pages, fields, annotations and
// resources, and grafting a page first makes every later reference to it land on the copy.
//
// The source is changed in memory: it must not be saved afterwards.
import type * as mupdf from 'mupdf'
import { describeSignature } from '../read/earlier-signature.ts'
import { SourceDestinations } from './merge-destinations.ts'
import { rekeyPage } from './merge-tags.ts'

export interface PreparedSource {
  /** Its pages in order, each a dictionary standing alone (inherited entries written in). */
  pages: mupdf.PDFObject[]
  /** Root fields: those of /AcroForm /Fields and those its widgets lead to though /Fields forgot them. */
  fieldRoots: mupdf.PDFObject[]
  /** Its /AcroForm, for /DA, /Q, /DR and /NeedAppearances. */
  acroForm: mupdf.PDFObject
  /** First top-level outline item (its siblings follow through /Next), cut from the outline root. */
  outlineFirst?: mupdf.PDFObject
  /** Its /OCProperties (layers), or null. */
  layers: mupdf.PDFObject
}

/** ISO 32000-1 Table 30: what a page may inherit from its ancestors in the page tree. */
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate']
/**
 * Page entries that point back into the document (the page tree, article beads) or run code (/AA):
 * not carried. Thumbnails would only be stale. Structure keys are merge-tags.ts's.
 */
const PAGE_KEYS_DROPPED = ['Parent', 'B', 'AA', 'Thumb']
const MAX_FIELD_DEPTH = 64

/**
 * `structShift`: how far its structure keys move into the merged structure tree (merge-tags.ts);
 * undefined when its tags are not kept.
 */
export function prepareSource(
  doc: mupdf.PDFDocument,
  label: string,
  notes: string[],
  structShift: number | undefined,
): PreparedSource {
  const pages = Array.from({ length: doc.countPages() }, (_, i) => doc.findPage(i))
  const destinations = new SourceDestinations(doc, pages)
  const fields = new FieldPreparer(label, notes, destinations)
  const catalog = doc.getTrailer().get('Root')
  if (!catalog.isDictionary()) throw new Error(`${label} has no document catalog: it cannot be merged`)
  const acroForm = catalog.get('AcroForm')
  const listed = catalog.get('AcroForm', 'Fields')
  for (let i = 0; listed.isArray() && i < listed.length; i++) fields.listed(listed.get(i))
  const seenForms = new Set<number>()
  for (const page of pages) {
    standAlone(page)
    rekeyPage(page, structShift, seenForms)
    const annots = page.get('Annots')
    for (let i = 0; annots.isArray() && i < annots.length; i++) {
      const annot = annots.get(i)
      if (!annot.isDictionary()) continue
      annot.delete('AA')
      destinations.fixLinks(annot)
      if (annot.get('Subtype').isName() && annot.get('Subtype').asName() === 'Widget')
        fields.widget(annots.get(i))
    }
  }
  if (structShift === undefined && !catalog.get('StructTreeRoot').isNull()) {
    notes.push(
      `${label} is tagged for accessibility; its tags could not be merged, so its pages are untagged`,
    )
  }
  return {
    pages,
    fieldRoots: fields.roots,
    acroForm,
    outlineFirst: prepareOutline(catalog.get('Outlines', 'First'), destinations),
    layers: catalog.get('OCProperties'),
  }
}

/** Writes inherited entries into the page, then drops what ties it to its document. */
function standAlone(page: mupdf.PDFObject): void {
  for (const key of INHERITED) {
    if (!page.get(key).isNull()) continue
    const inherited = page.getInheritable(key)
    if (!inherited.isNull()) page.put(key, inherited)
  }
  for (const key of PAGE_KEYS_DROPPED) page.delete(key)
}

/**
 * Walks the field tree from the roots and from each widget up: drops field scripts (/AA: a
 * calculation could change a signed value on opening), and takes the value off signature fields,
 * whose signature covers the bytes of another file and would show as broken in the merged one.
 */
class FieldPreparer {
  readonly roots: mupdf.PDFObject[] = []
  private readonly seen = new Set<number>()

  private readonly label: string
  private readonly notes: string[]
  private readonly destinations: SourceDestinations
  constructor(label: string, notes: string[], destinations: SourceDestinations) {
    this.label = label
    this.notes = notes
    this.destinations = destinations
  }

  /**
   * An entry of /AcroForm /Fields. Some files list a kid there rather than its root: the tree is
   * taken from the top, so the kid keeps its parent (and its full name).
   */
  listed(field: mupdf.PDFObject): void {
    this.fromTop(this.climb(field))
  }

  /** A widget on a page: its root field joins the form even when /Fields forgot it. */
  widget(ref: mupdf.PDFObject): void {
    this.prepare(ref) // even should its parent not list it among its kids
    this.fromTop(this.climb(ref))
  }

  /** Up /Parent to the root field. A cycle or an absurd depth is cut: that node becomes a root. */
  private climb(start: mupdf.PDFObject): mupdf.PDFObject {
    const path = new Set<number>()
    let node = start
    for (let depth = 0; ; depth++) {
      if (node.isIndirect()) path.add(node.asIndirect())
      const parent = node.get('Parent')
      if (!parent.isDictionary()) return node
      if (depth >= MAX_FIELD_DEPTH || (parent.isIndirect() && path.has(parent.asIndirect()))) {
        node.delete('Parent')
        return node
      }
      adopt(parent, node)
      node = parent
    }
  }

  /** A root not yet reached from another root: kept, and its tree prepared. */
  private fromTop(root: mupdf.PDFObject): void {
    if (!root.isDictionary() || (root.isIndirect() && this.seen.has(root.asIndirect()))) return
    this.roots.push(root)
    this.down(root, 0)
  }

  private down(field: mupdf.PDFObject, depth: number): void {
    if (depth > MAX_FIELD_DEPTH || !field.isDictionary()) return
    if (field.isIndirect()) {
      if (this.seen.has(field.asIndirect())) return
      this.seen.add(field.asIndirect())
    }
    this.prepare(field)
    const kids = field.get('Kids')
    if (!kids.isArray()) return
    const kept: mupdf.PDFObject[] = []
    for (let i = 0; i < kids.length; i++) {
      const kid = kids.get(i)
      // A kid reached already (an ancestor, or another parent's) would make the tree a loop.
      if (kid.isIndirect() && this.seen.has(kid.asIndirect())) continue
      // A kid that forgot its parent would be named without it, or taken for a root of its own.
      if (kid.isDictionary() && kid.get('Parent').isNull() && field.isIndirect()) kid.put('Parent', field)
      kept.push(kid)
      this.down(kid, depth + 1)
    }
    if (kept.length < kids.length) field.put('Kids', kept)
  }

  private prepare(field: mupdf.PDFObject): void {
    field.delete('AA')
    this.destinations.fixLinks(field)
    const value = field.get('V')
    if (!value.isDictionary() || !isSignatureField(field)) return
    const name = field.get('T').isString() ? ` in field "${field.get('T').asString()}"` : ''
    this.notes.push(
      `${this.label} carried a signature by ${describeSignature(value)}${name}; it cannot be kept in a merged PDF (it covers the bytes of the document alone): its appearance is kept, the field is left unsigned`,
    )
    field.delete('V')
    field.delete('Lock')
    // Read-only (ISO 32000-1 table 221, bit 1): a viewer must not offer to sign where a signature was.
    const flags = field.get('Ff')
    field.put('Ff', (flags.isInteger() ? flags.asNumber() : 0) | 1)
  }
}

/** Some files give a widget its /Parent but leave it out of the parent's /Kids: walking down would miss it. */
function adopt(parent: mupdf.PDFObject, kid: mupdf.PDFObject): void {
  if (!kid.isIndirect()) return
  let kids = parent.get('Kids')
  if (!kids.isArray()) kids = parent.put('Kids', [])
  for (let i = 0; i < kids.length; i++) {
    const known = kids.get(i)
    if (known.isIndirect() && known.asIndirect() === kid.asIndirect()) return
  }
  kids.push(kid)
}

function isSignatureField(field: mupdf.PDFObject): boolean {
  const type = field.getInheritable('FT')
  return type.isName() && type.asName() === 'Sig'
}

/** Outline items made explicit and script-free; the first top-level item, cut from its root. */
function prepareOutline(
  first: mupdf.PDFObject,
  destinations: SourceDestinations,
): mupdf.PDFObject | undefined {
  if (!first.isDictionary()) return undefined
  const seen = new Set<number>()
  const stack: Array<{ item: mupdf.PDFObject; top: boolean }> = [{ item: first, top: true }]
  while (stack.length > 0) {
    const { item, top } = stack.pop()!
    if (!item.isDictionary() || !item.isIndirect() || seen.has(item.asIndirect())) continue
    seen.add(item.asIndirect())
    item.delete('SE') // a structure element of a tree that is not carried
    if (top) item.delete('Parent') // the root stays behind; the merge gives the item a new parent
    destinations.fixLinks(item)
    stack.push({ item: item.get('Next'), top }, { item: item.get('First'), top: false })
  }
  return first
}
