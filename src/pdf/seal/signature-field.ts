// The objects an invisible signature field adds to a PDF (ISO 32000-1 §12.7.4.5, §12.8): a merged
// field + widget on page 1 whose /V is the signature dictionary, listed in the page's /Annots and the
// AcroForm's /Fields, with /SigFlags set. Made with MuPDF in the document as opened, so the next
// incremental save appends them.
import type * as mupdf from 'mupdf'

/** §12.7.2 table 219: SignaturesExist (1) | AppendOnly (2), so viewers keep later saves incremental. */
const SIG_FLAGS = 3
/** §12.5.3: Print (4), which PDF/A requires of every annotation, | Locked (128). */
const WIDGET_FLAGS = 132

/** Adds `signature` (a dictionary, made indirect here) as the value of a new field on page 1. */
export function addSignatureField(doc: mupdf.PDFDocument, signature: mupdf.PDFObject): void {
  const value = doc.addObject(signature)
  const page = doc.findPage(0)
  const form = acroForm(doc)
  const widget = doc.addObject({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    T: doc.newString(freeFieldName(form)),
    V: value,
    // §12.7.4.5: invisible, a zero-size rectangle; PDF 2.0 and PDF/A ask no appearance stream of it.
    Rect: [0, 0, 0, 0],
    F: WIDGET_FLAGS,
    P: page,
  })
  appendTo(doc, page, 'Annots', widget)
  appendTo(doc, form, 'Fields', widget)
  const flags = form.get('SigFlags')
  form.put('SigFlags', (flags.isNumber() ? flags.asNumber() : 0) | SIG_FLAGS)
}

/** The catalog's /AcroForm, made (indirect) when the document has none. */
export function acroForm(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const catalog = doc.getTrailer().get('Root')
  const existing = catalog.get('AcroForm')
  if (existing.isDictionary()) return existing
  const form = doc.addObject(doc.newDictionary())
  catalog.put('AcroForm', form)
  return form
}

/** Appends to an array entry (changing the array where it is), or makes one. */
function appendTo(doc: mupdf.PDFDocument, holder: mupdf.PDFObject, key: string, item: mupdf.PDFObject): void {
  const value = holder.get(key)
  if (value.isArray()) value.push(item)
  else {
    const array = doc.newArray()
    array.push(item)
    holder.put(key, array)
  }
}

/** §12.7.3.2: field names are unique; a document sealed twice gets "Paraph seal 2". */
function freeFieldName(form: mupdf.PDFObject): string {
  const fields = form.get('Fields')
  const taken = new Set<string>()
  if (fields.isArray()) {
    for (let i = 0; i < fields.length; i++) {
      const title = fields.get(i).get('T')
      if (title.isString()) taken.add(title.asString())
    }
  }
  let name = 'Paraph seal'
  for (let n = 2; taken.has(name); n++) name = `Paraph seal ${n}`
  return name
}
