// Attached files (/Names /EmbeddedFiles) of a document merged into another: grafted into the
// merged document's list under a name prefixed with the document's, so two documents may each
// attach "invoice.xml". Viewers show the file's own name (its file specification); the key only
// has to be unique. Attachments on pages (/FileAttachment annotations) travel with their pages.
import type * as mupdf from 'mupdf'
import { readNameTree } from './pdf-trees.ts'

export function mergeAttachments(
  doc: mupdf.PDFDocument,
  source: mupdf.PDFDocument,
  name: string,
  map: mupdf.PDFGraftMap,
): void {
  const attached = readNameTree(source.getTrailer().get('Root').get('Names', 'EmbeddedFiles'))
  if (attached.size === 0) return
  const catalog = doc.getTrailer().get('Root')
  const entries = readNameTree(catalog.get('Names', 'EmbeddedFiles'))
  for (const [key, filespec] of attached) {
    let unique = `${name}/${key}`
    for (let n = 2; entries.has(unique); n++) unique = `${name}/${key} (${n})`
    entries.set(unique, map.graftObject(filespec))
  }
  // Rewritten flat and sorted (name trees are looked up by binary search on sorted keys).
  const flat = doc.newArray()
  for (const key of [...entries.keys()].sort()) {
    flat.push(doc.newString(key))
    flat.push(entries.get(key)!)
  }
  let names = catalog.get('Names')
  if (!names.isDictionary()) names = catalog.put('Names', doc.newDictionary())
  names.put('EmbeddedFiles', doc.addObject({ Names: flat }))
}
