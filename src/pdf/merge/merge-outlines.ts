// The outline (bookmarks) of a merged document: one top-level item per document,
// titled with its name and opening its first page, with the document's own items nested beneath it.
// The first document's items are re-parented in place (an incremental update changes only their
// /Parent); the others arrive grafted, cut from their own root (merge-source.ts).
import type * as mupdf from 'mupdf'

export interface OutlinePart {
  title: string
  /** The document's first page in the merged document; absent for a document without pages. */
  firstPage?: mupdf.PDFObject
  /** Its first top-level item, siblings following through /Next. */
  first?: mupdf.PDFObject
  /**
   * The items are grafted copies, the merge's own to rewrite: their links and counts are remade
   * from the tree as it is, whatever the source said. The first document's items are only re-parented.
   */
  grafted?: boolean
}

/** Outlines nest rarely more than a few levels; a deeper (or cyclic) chain is attacker-shaped. */
const MAX_DEPTH = 64

/** The base document's own top-level outline items, before the merge re-parents them. */
export function existingOutline(doc: mupdf.PDFDocument): mupdf.PDFObject | undefined {
  const first = doc.getTrailer().get('Root').get('Outlines', 'First')
  return first.isDictionary() ? first : undefined
}

export function mergeOutlines(doc: mupdf.PDFDocument, parts: OutlinePart[]): void {
  const catalog = doc.getTrailer().get('Root')
  let root = catalog.get('Outlines')
  if (!root.isDictionary() || !root.isIndirect()) {
    root = doc.addObject(doc.newDictionary())
    catalog.put('Outlines', root)
  }
  root.put('Type', doc.newName('Outlines'))
  const items = parts.map((part) => documentItem(doc, root, part))
  linkSiblings(items)
  root.put('First', items[0]!)
  root.put('Last', items.at(-1)!)
  root.put(
    'Count',
    items.reduce((sum, item) => sum + 1 + Math.max(0, item.get('Count').asNumber()), 0),
  )
}

function documentItem(doc: mupdf.PDFDocument, parent: mupdf.PDFObject, part: OutlinePart): mupdf.PDFObject {
  const item = doc.addObject(doc.newDictionary())
  item.put('Title', doc.newString(part.title))
  item.put('Parent', parent)
  if (part.firstPage) item.put('Dest', [part.firstPage, doc.newName('Fit')])
  if (!part.first) return item
  // Open, so each document shows its own items as its author left them (open or closed).
  const count = part.grafted ? tidy(item, part.first, new Set(), 0) : adopt(item, part.first)
  if (count > 0) item.put('Count', count)
  return item
}

/** The first document's top-level items, moved under `item` in place. */
function adopt(item: mupdf.PDFObject, first: mupdf.PDFObject): number {
  const children = siblings(first)
  if (children.length === 0) return 0
  for (const child of children) child.put('Parent', item)
  item.put('First', children[0]!)
  item.put('Last', children.at(-1)!)
  return visibleBelow(item, 0, new Set())
}

/**
 * Makes a grafted subtree consistent: each item once (loops cut), /Parent, /Prev, /Next, /First,
 * /Last as the tree is, /Count from it (its sign, open or closed, kept). Returns how many items
 * show below `parent` when it is open.
 */
function tidy(parent: mupdf.PDFObject, first: mupdf.PDFObject, seen: Set<number>, depth: number): number {
  const children: mupdf.PDFObject[] = []
  for (let item = first; item.isDictionary() && item.isIndirect(); item = item.get('Next')) {
    if (seen.has(item.asIndirect()) || depth > MAX_DEPTH) break
    seen.add(item.asIndirect())
    children.push(item)
  }
  if (children.length === 0) {
    parent.delete('First')
    parent.delete('Last')
    return 0
  }
  parent.put('First', children[0]!)
  parent.put('Last', children.at(-1)!)
  let visible = 0
  children.forEach((child, i) => {
    child.put('Parent', parent)
    if (i > 0) child.put('Prev', children[i - 1]!)
    else child.delete('Prev')
    if (i + 1 < children.length) child.put('Next', children[i + 1]!)
    else child.delete('Next')
    const stored = child.get('Count')
    const closed = stored.isNumber() && stored.asNumber() < 0
    const below = tidy(child, child.get('First'), seen, depth + 1)
    if (below === 0) child.delete('Count')
    else child.put('Count', closed ? -below : below)
    visible += 1 + (closed ? 0 : below)
  })
  return visible
}

/** The chain from `first` through /Next, stopping where it would loop. */
function siblings(first: mupdf.PDFObject): mupdf.PDFObject[] {
  const chain: mupdf.PDFObject[] = []
  const seen = new Set<number>()
  for (let item = first; item.isDictionary() && item.isIndirect(); item = item.get('Next')) {
    if (seen.has(item.asIndirect())) {
      chain.at(-1)?.delete('Next') // cut the loop, or viewers walk it forever
      break
    }
    seen.add(item.asIndirect())
    chain.push(item)
  }
  return chain
}

function linkSiblings(items: mupdf.PDFObject[]): void {
  items.forEach((item, i) => {
    if (i > 0) item.put('Prev', items[i - 1]!)
    if (i + 1 < items.length) item.put('Next', items[i + 1]!)
  })
}

/**
 * ISO 32000-1 Table 153: the items shown below an open item — its children, and theirs where a
 * child is open (positive /Count). Counted on the tree as it is, whatever the stored counts say.
 */
function visibleBelow(item: mupdf.PDFObject, depth: number, seen: Set<number>): number {
  if (depth > MAX_DEPTH || seen.has(item.asIndirect())) return 0
  seen.add(item.asIndirect())
  let count = 0
  for (const child of siblings(item.get('First'))) {
    count += 1
    const stored = child.get('Count')
    if (stored.isNumber() && stored.asNumber() > 0) count += visibleBelow(child, depth + 1, seen)
  }
  return count
}
