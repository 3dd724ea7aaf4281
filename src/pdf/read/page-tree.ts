// Reads every page's boxes as MuPDF sees the page tree (ISO 32000-1 §7.7.3), the same pages the
// finalizer will stamp. MuPDF walks the tree in C, iteratively, and throws on a cycle; what is left
// to us is the page limit, checked on the root's /Count before any page is looked up, so a tree of
// 100 000 pages is refused without being walked, and a tree that lists one page twice.
import type * as mupdf from 'mupdf'
import { LIMITS } from '../../limits.ts'
import type { RawPage } from './inspector-protocol.ts'
import { rawPage } from './mupdf-open.ts'

export const MAX_PAGES = LIMITS.pdfPages

/** A reason the file cannot be read, worded to follow "the PDF could not be parsed: ". */
export class PageTreeError extends Error {}

export type PageTree = { ok: true; pages: RawPage[] } | { ok: false; pageCount: number }

export function readPageTree(doc: mupdf.PDFDocument): PageTree {
  // The root's /Count: MuPDF refuses a negative one or one past its object limit ("invalid number
  // of pages"), and finds no pages past the ones the tree really holds ("cannot find page").
  const pageCount = doc.countPages()
  if (pageCount > MAX_PAGES) return { ok: false, pageCount }
  if (pageCount === 0) throw new PageTreeError('it has no pages')
  const pages: RawPage[] = []
  // Each page object once: values stamped on a page listed twice would show on both.
  const firstListed = new Map<number, number>()
  for (let index = 0; index < pageCount; index++) {
    const page = doc.findPage(index)
    if (!page.isDictionary()) throw new PageTreeError(`its page tree lists an object that is not a page`)
    const object = page.asIndirect()
    const earlier = firstListed.get(object)
    if (earlier !== undefined) {
      throw new PageTreeError(`its page tree lists the same page twice (pages ${earlier} and ${index + 1})`)
    }
    if (object !== 0) firstListed.set(object, index + 1)
    pages.push(rawPage(page))
  }
  return { ok: true, pages }
}
