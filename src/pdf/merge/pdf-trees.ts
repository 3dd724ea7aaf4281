// Name trees (ISO 32000-1 §7.9.6: /Names /Dests, /EmbeddedFiles…) and number trees (§7.9.7: /PageLabels,
// the structure tree's /ParentTree) read as maps. MuPDF.js's own readers recurse without a guard; a
// tree from an untrusted file may loop or nest without end.
import type * as mupdf from 'mupdf'

const MAX_DEPTH = 32

/** Every key and value of the name tree rooted at `root` (a null root gives an empty map). */
export function readNameTree(root: mupdf.PDFObject): Map<string, mupdf.PDFObject> {
  const entries = new Map<string, mupdf.PDFObject>()
  walk(root, 'Names', (key, value) => {
    if (key.isString()) entries.set(key.asString(), value)
  })
  return entries
}

/** Every key and value of the number tree rooted at `root`, keys ascending. */
export function readNumberTree(root: mupdf.PDFObject): Map<number, mupdf.PDFObject> {
  const entries = new Map<number, mupdf.PDFObject>()
  walk(root, 'Nums', (key, value) => {
    if (key.isInteger()) entries.set(key.asNumber(), value)
  })
  return new Map([...entries].sort(([a], [b]) => a - b))
}

function walk(
  root: mupdf.PDFObject,
  leafKey: 'Names' | 'Nums',
  entry: (key: mupdf.PDFObject, value: mupdf.PDFObject) => void,
): void {
  const seen = new Set<number>()
  const visit = (node: mupdf.PDFObject, depth: number): void => {
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) return
      seen.add(node.asIndirect())
    }
    if (!node.isDictionary() || depth > MAX_DEPTH) return
    const pairs = node.get(leafKey)
    for (let i = 0; pairs.isArray() && i + 1 < pairs.length; i += 2) entry(pairs.get(i), pairs.get(i + 1))
    const kids = node.get('Kids')
    for (let i = 0; kids.isArray() && i < kids.length; i++) visit(kids.get(i), depth + 1)
  }
  visit(root, 0)
}
