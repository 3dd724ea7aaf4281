// Links of a document about to be merged into another (merge-documents.ts), made to work on their
// own. A named destination means something only through its document's catalog (/Names /Dests or
// the older /Dests), which a merge does not carry: each is replaced by the explicit page-and-view
// array it names, whose page reference the graft then maps onto the copied page. Actions are kept
// only when they navigate (GoTo, GoToR, URI, Named): a signed final carries no script, launch,
// form submission or layer switch from a document that is not its base.
import type * as mupdf from 'mupdf'
import { readNameTree } from './pdf-trees.ts'

const KEPT_ACTIONS = new Set(['GoTo', 'GoToR', 'URI', 'Named'])
/** Action chains are attacker-shaped: bound how far they are followed. */
const MAX_DEPTH = 32

export class SourceDestinations {
  private named: Map<string, mupdf.PDFObject> | undefined
  private readonly pageNumbers: Set<number>

  private readonly doc: mupdf.PDFDocument
  constructor(doc: mupdf.PDFDocument, pages: mupdf.PDFObject[]) {
    this.doc = doc
    this.pageNumbers = new Set(pages.map((page) => page.asIndirect()))
  }

  /** `[page view…]` pointing at one of the document's pages, or undefined when it leads nowhere. */
  explicit(dest: mupdf.PDFObject): mupdf.PDFObject | undefined {
    let target = dest
    if (target.isName() || target.isString()) target = this.lookup(target) ?? target
    if (target.isDictionary()) target = target.get('D') // ISO 32000-1 §12.3.2.3: << /D [...] >>
    if (!target.isArray() || target.length === 0) return undefined
    const page = target.get(0)
    if (page.isIndirect() && this.pageNumbers.has(page.asIndirect())) return target
    // A page index where a reference belongs: some producers write local destinations that way.
    if (page.isInteger() && page.asNumber() >= 0 && page.asNumber() < this.doc.countPages()) {
      const copy = this.doc.newArray()
      copy.push(this.doc.findPage(page.asNumber()))
      for (let i = 1; i < target.length; i++) copy.push(target.get(i))
      return copy
    }
    return undefined
  }

  /**
   * Rewrites a link holder (annotation, outline item) in place: /Dest made explicit, /A kept only
   * when it navigates. Entries that would lead nowhere are removed, leaving a plain item.
   */
  fixLinks(holder: mupdf.PDFObject): void {
    const dest = holder.get('Dest')
    if (!dest.isNull()) {
      const explicit = this.explicit(dest)
      if (explicit) holder.put('Dest', explicit)
      else holder.delete('Dest')
    }
    const action = holder.get('A')
    if (!action.isNull() && !this.keepAction(action, 0)) holder.delete('A')
  }

  /** Whether an action is kept; a kept GoTo has its /D made explicit, its /Next chain filtered. */
  private keepAction(action: mupdf.PDFObject, depth: number): boolean {
    if (!action.isDictionary() || depth > MAX_DEPTH) return false
    const type = action.get('S')
    if (!type.isName() || !KEPT_ACTIONS.has(type.asName())) return false
    if (type.asName() === 'GoTo') {
      const explicit = this.explicit(action.get('D'))
      if (!explicit) return false
      action.put('D', explicit)
    }
    this.filterNext(action, depth)
    return true
  }

  private filterNext(action: mupdf.PDFObject, depth: number): void {
    const next = action.get('Next')
    if (next.isNull()) return
    const chain = next.isArray() ? Array.from({ length: next.length }, (_, i) => next.get(i)) : [next]
    const kept = chain.filter((item) => this.keepAction(item, depth + 1))
    if (kept.length === 0) action.delete('Next')
    else action.put('Next', kept.length === 1 ? kept[0] : kept)
  }

  private lookup(name: mupdf.PDFObject): mupdf.PDFObject | undefined {
    this.named ??= this.loadNamed()
    return this.named.get(name.isName() ? name.asName() : name.asString())
  }

  /** /Names /Dests (a name tree, PDF 1.2) and /Dests (a dictionary, PDF 1.1), as one map. */
  private loadNamed(): Map<string, mupdf.PDFObject> {
    const catalog = this.doc.getTrailer().get('Root')
    const named = readNameTree(catalog.get('Names', 'Dests'))
    const old = catalog.get('Dests')
    if (old.isDictionary())
      old.forEach((value, key) => {
        if (!named.has(String(key))) named.set(String(key), value)
      })
    return named
  }
}
