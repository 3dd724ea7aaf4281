// The structure tree (tags, ISO 32000-1 §14.7) of a tagged document merged into a tagged first
// document: its elements go under a /Part element titled with its name, beside the first document's
// own, and its /ParentTree entries join the merged one with their keys shifted past those in use.
// merge-source.ts shifts the keys the document's pages, annotations and forms point with
// (/StructParents, /StructParent) by the same amount before they are grafted, so a screen reader
// follows each marked content to the right element. A first document without tags has no tree to
// join: a later document's tags are then dropped, and the merge says so.
import type * as mupdf from 'mupdf'
import { readNumberTree } from './pdf-trees.ts'

/**
 * How far the source's structure keys must move, when both documents are tagged; undefined when
 * the source's tags cannot be kept (either has no structure tree).
 */
export function structureShift(merged: mupdf.PDFDocument, source: mupdf.PDFDocument): number | undefined {
  const base = structTreeRoot(merged)
  if (!base.isDictionary() || !structTreeRoot(source).isDictionary()) return undefined
  return nextKey(base)
}

/** Grafts the source's elements under a /Part named `name`; call after its pages are grafted. */
export function mergeTags(
  merged: mupdf.PDFDocument,
  source: mupdf.PDFDocument,
  name: string,
  map: mupdf.PDFGraftMap,
  shift: number,
): void {
  const base = structTreeRoot(merged)
  const own = structTreeRoot(source)
  const tops = elements(own.get('K'))
  // Cut from the source's root first, or grafting an element would drag the whole root along.
  for (const top of tops) top.delete('P')
  const parent = containerOf(base)
  const part = merged.addObject(merged.newDictionary())
  part.put('Type', merged.newName('StructElem'))
  part.put('S', merged.newName('Part'))
  part.put('T', merged.newString(name))
  part.put('P', parent)
  const kids = tops.map((top) => map.graftObject(top))
  for (const kid of kids) kid.put('P', part)
  part.put('K', kids)
  const existing = parent.get('K')
  if (existing.isArray()) existing.push(part)
  else parent.put('K', existing.isNull() ? [part] : [existing, part])
  const entries = [...readNumberTree(own.get('ParentTree'))].map(
    ([key, value]) => [key + shift, map.graftObject(value)] as const,
  )
  appendParentTree(merged, base, entries)
  base.put('ParentTreeNextKey', shift + nextKey(own))
  for (const key of ['RoleMap', 'ClassMap']) mergeMap(merged, base, own, key, map)
}

/**
 * A page's structure keys — its own /StructParents, its annotations' /StructParent, those of the
 * forms it draws — moved by `shift`, or dropped when its tags are not kept (undefined).
 * `seenForms` spans the document: a form drawn on several pages moves once.
 */
export function rekeyPage(page: mupdf.PDFObject, shift: number | undefined, seenForms: Set<number>): void {
  rekey(page, shift)
  const annots = page.get('Annots')
  for (let i = 0; annots.isArray() && i < annots.length; i++) {
    if (annots.get(i).isDictionary()) rekey(annots.get(i), shift)
  }
  rekeyForms(page.get('Resources'), shift, seenForms, 0)
}

function rekey(holder: mupdf.PDFObject, shift: number | undefined): void {
  for (const key of ['StructParents', 'StructParent']) {
    const value = holder.get(key)
    if (value.isNull()) continue
    if (shift === undefined || !value.isInteger()) holder.delete(key)
    else holder.put(key, value.asNumber() + shift)
  }
}

const MAX_FORM_DEPTH = 16

function rekeyForms(
  resources: mupdf.PDFObject,
  shift: number | undefined,
  seen: Set<number>,
  depth: number,
): void {
  if (!resources.isDictionary() || depth > MAX_FORM_DEPTH) return
  const xobjects = resources.get('XObject')
  if (!xobjects.isDictionary()) return
  xobjects.forEach((xobject) => {
    if (!xobject.isIndirect() || seen.has(xobject.asIndirect())) return
    seen.add(xobject.asIndirect())
    const subtype = xobject.get('Subtype')
    if (!subtype.isName() || subtype.asName() !== 'Form') return
    rekey(xobject, shift)
    rekeyForms(xobject.get('Resources'), shift, seen, depth + 1)
  })
}

/**
 * Where a merged document's /Part goes: inside the first document's single /Document element when
 * it has one (PDF/UA wants one document element at the top), else beside its top elements.
 */
function containerOf(root: mupdf.PDFObject): mupdf.PDFObject {
  const top = root.get('K')
  if (!top.isDictionary() || !top.isIndirect()) return root
  const type = top.get('S')
  if (!type.isName()) return root
  const mapped = root.get('RoleMap', type.asName())
  const role = mapped.isName() ? mapped.asName() : type.asName()
  return role === 'Document' ? top : root
}

function structTreeRoot(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return doc.getTrailer().get('Root', 'StructTreeRoot')
}

/** Past every key of the /ParentTree and past /ParentTreeNextKey, whichever is higher. */
function nextKey(root: mupdf.PDFObject): number {
  const keys = [...readNumberTree(root.get('ParentTree')).keys()]
  const stated = root.get('ParentTreeNextKey')
  return Math.max(stated.isInteger() ? stated.asNumber() : 0, keys.length > 0 ? keys.at(-1)! + 1 : 0)
}

/** The element dictionaries of a /K: one, or an array of them (marked-content ids are skipped). */
function elements(kids: mupdf.PDFObject): mupdf.PDFObject[] {
  if (kids.isDictionary()) return [kids]
  const found: mupdf.PDFObject[] = []
  for (let i = 0; kids.isArray() && i < kids.length; i++) {
    if (kids.get(i).isDictionary()) found.push(kids.get(i))
  }
  return found
}

/**
 * The shifted keys all lie past the merged tree's last: appended in order they keep the tree
 * sorted, as a new leaf with its /Limits when the tree has intermediate nodes.
 */
function appendParentTree(
  merged: mupdf.PDFDocument,
  root: mupdf.PDFObject,
  entries: ReadonlyArray<readonly [number, mupdf.PDFObject]>,
): void {
  if (entries.length === 0) return
  let tree = root.get('ParentTree')
  if (!tree.isDictionary()) tree = root.put('ParentTree', merged.addObject({ Nums: [] }))
  const pairs = entries.flatMap(([key, value]) => [merged.newInteger(key), value])
  const kids = tree.get('Kids')
  if (kids.isArray()) {
    kids.push(merged.addObject({ Limits: [entries[0]![0], entries.at(-1)![0]], Nums: pairs }))
    return
  }
  let nums = tree.get('Nums')
  if (!nums.isArray()) nums = tree.put('Nums', [])
  for (const item of pairs) nums.push(item)
}

/** /RoleMap and /ClassMap: the source's entries the merged map lacks (the first document's win). */
function mergeMap(
  merged: mupdf.PDFDocument,
  base: mupdf.PDFObject,
  own: mupdf.PDFObject,
  key: string,
  map: mupdf.PDFGraftMap,
): void {
  const from = own.get(key)
  if (!from.isDictionary()) return
  let into = base.get(key)
  if (!into.isDictionary()) into = base.put(key, merged.newDictionary())
  from.forEach((value, name) => {
    if (into.get(name).isNull()) into.put(name, map.graftObject(value))
  })
}
