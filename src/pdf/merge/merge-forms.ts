// The interactive form of a merged document. The first document's fields stay as
// they are (same objects, same names: an earlier signature's field locks still name them). Each
// other document's root fields go under a new non-terminal field named after the document, so two
// documents may both have a field "name" ("contract.name", "annex.name"), and every widget on a
// grafted page is reachable from /AcroForm /Fields.
import type * as mupdf from 'mupdf'

export interface FormPart {
  /** The document's name in the submission. */
  name: string
  /** 1-indexed position, to tell apart documents whose names clash. */
  position: number
  /** Its root fields, grafted into the merged document. */
  roots: mupdf.PDFObject[]
  /** Its /AcroForm in the source document (may be null), and the graft map of that document. */
  acroForm: mupdf.PDFObject
  map: mupdf.PDFGraftMap
}

/** Variable-text defaults that fields inherit from /AcroForm (ISO 32000-1 Table 218), and fields too. */
const INHERITED_BY_FIELDS = ['DA', 'Q']

/** `baseName`: the first document's name, kept free so no other document's fields look like its own. */
export function mergeForms(doc: mupdf.PDFDocument, baseName: string, parts: FormPart[]): void {
  const withFields = parts.filter((part) => part.roots.length > 0)
  if (withFields.length === 0) return
  const form = acroFormOf(doc)
  const fields = form.get('Fields')
  const taken = new Set<string>([stemOf(baseName, 1)])
  for (let i = 0; i < fields.length; i++) {
    const name = fields.get(i, 'T')
    if (name.isString()) taken.add(name.asString())
  }
  for (const part of withFields) {
    const parent = doc.addObject(doc.newDictionary())
    parent.put('T', doc.newString(uniqueName(part, taken)))
    for (const key of INHERITED_BY_FIELDS) {
      const value = part.acroForm.isDictionary() ? part.acroForm.get(key) : undefined
      if (value && !value.isNull()) parent.put(key, part.map.graftObject(value))
    }
    parent.put('Kids', part.roots)
    for (const root of part.roots) root.put('Parent', parent)
    fields.push(parent)
    mergeResources(doc, form, part)
    if (needsAppearances(part.acroForm)) form.put('NeedAppearances', true)
  }
}

/** The merged document's /AcroForm with a /Fields array, made when the first document had none. */
function acroFormOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const catalog = doc.getTrailer().get('Root')
  let form = catalog.get('AcroForm')
  if (!form.isDictionary()) {
    form = doc.addObject(doc.newDictionary())
    catalog.put('AcroForm', form)
  }
  if (!form.get('Fields').isArray()) form.put('Fields', doc.newArray())
  return form
}

/**
 * A partial field name holds no period (ISO 32000-1 §12.7.3.2): "contract.pdf" becomes "contract",
 * and a clash with a name in use gets the document's position ("contract (2)").
 */
function uniqueName(part: FormPart, taken: Set<string>): string {
  const stem = stemOf(part.name, part.position)
  let name = stem
  for (let n = 0; taken.has(name); n++)
    name = n === 0 ? `${stem} (${part.position})` : `${stem} (${part.position}-${n})`
  taken.add(name)
  return name
}

function stemOf(name: string, position: number): string {
  return (
    name
      .replace(/\.pdf$/i, '')
      .replaceAll('.', '_')
      .trim() || `document ${position}`
  )
}

/**
 * /DR: the resources (fonts mostly) that /DA strings name, for a viewer rebuilding an appearance.
 * A name already used by the merged form keeps its first meaning: appearances already drawn carry
 * their own resources, so only a regeneration could pick the other font.
 */
function mergeResources(doc: mupdf.PDFDocument, form: mupdf.PDFObject, part: FormPart): void {
  if (!part.acroForm.isDictionary()) return
  const source = part.acroForm.get('DR')
  if (!source.isDictionary()) return
  let target = form.get('DR')
  if (!target.isDictionary()) {
    target = doc.newDictionary()
    form.put('DR', target)
  }
  source.forEach((category, key) => {
    if (!category.isDictionary()) return
    let into = target.get(key)
    if (!into.isDictionary()) {
      into = doc.newDictionary()
      target.put(key, into)
    }
    category.forEach((value, name) => {
      if (into.get(name).isNull()) into.put(name, part.map.graftObject(value))
    })
  })
}

function needsAppearances(acroForm: mupdf.PDFObject): boolean {
  if (!acroForm.isDictionary()) return false
  const flag = acroForm.get('NeedAppearances')
  return flag.isBoolean() && flag.asBoolean()
}
