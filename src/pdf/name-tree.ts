// A name tree (ISO 32000-1 §7.9.6: /Names /Dests, /Names /EmbeddedFiles…) read as a map. MuPDF.js's
// own readers recurse without a guard; a tree from an untrusted file may loop or nest without end.
import type * as mupdf from 'mupdf'

const MAX_DEPTH = 32

/** Every key and value of the tree rooted at `root` (a null root gives an empty map). */
export function readNameTree(root: mupdf.PDFObject): Map<string, mupdf.PDFObject> {
  const entries = new Map<string, mupdf.PDFObject>()
  const seen = new Set<number>()
  const visit = (node: mupdf.PDFObject, depth: number): void => {
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) return
      seen.add(node.asIndirect())
    }
    if (!node.isDictionary() || depth > MAX_DEPTH) return
    const names = node.get('Names')
    for (let i = 0; names.isArray() && i + 1 < names.length; i += 2) {
      const key = names.get(i)
      if (key.isString()) entries.set(key.asString(), names.get(i + 1))
    }
    const kids = node.get('Kids')
    for (let i = 0; kids.isArray() && i < kids.length; i++) visit(kids.get(i), depth + 1)
  }
  visit(root, 0)
  return entries
}
