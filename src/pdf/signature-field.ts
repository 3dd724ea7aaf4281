// The objects an invisible signature field adds to a PDF (ISO 32000-1 §12.7.4.5, §12.8): a merged
// field + widget on page 1 whose /V is the signature dictionary, listed in the page's /Annots and the
// AcroForm's /Fields, with /SigFlags set. Returns only the objects to append or rewrite.
import {
  PDFArray,
  type PDFContext,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
} from 'pdf-lib'
import type { UpdateObject } from './incremental-update.ts'

/** §12.7.2 table 219: SignaturesExist (1) | AppendOnly (2), so viewers keep later saves incremental. */
const SIG_FLAGS = 3
/** §12.5.3: Print (4), which PDF/A requires of every annotation, | Locked (128). */
const WIDGET_FLAGS = 132

/**
 * `signature` is the signature dictionary, numbered `firstFree`; the widget takes the next number,
 * and a new AcroForm, when the document has none, the one after. `doc` is modified in memory only.
 */
export function signatureFieldObjects(
  doc: PDFDocument,
  firstFree: number,
  signature: Uint8Array,
): UpdateObject[] {
  const { context } = doc
  const signatureRef = PDFRef.of(firstFree)
  const widgetRef = PDFRef.of(firstFree + 1)
  const changed = new Set<PDFRef>([widgetRef])
  const page = doc.getPage(0)
  const form = acroForm(doc, PDFRef.of(firstFree + 2), changed)
  context.assign(
    widgetRef,
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of(freeFieldName(context, form.dict)),
      V: signatureRef,
      // §12.7.4.5: invisible, a zero-size rectangle; PDF 2.0 and PDF/A ask no appearance stream of it.
      Rect: [0, 0, 0, 0],
      F: WIDGET_FLAGS,
      P: page.ref,
    }),
  )
  appendTo(context, { ref: page.ref, dict: page.node }, 'Annots', widgetRef, changed)
  appendTo(context, form, 'Fields', widgetRef, changed)
  const flags = form.dict.get(PDFName.of('SigFlags'))
  const current = flags instanceof PDFNumber ? flags.asNumber() : 0
  form.dict.set(PDFName.of('SigFlags'), PDFNumber.of(current | SIG_FLAGS))
  changed.add(form.ref)
  const rewritten = [...changed].map((ref) => ({ ref, value: context.lookup(ref)! }))
  return [{ ref: signatureRef, value: signature }, ...rewritten]
}

/** A dictionary, and the indirect object that holds it (itself, or the catalog for a direct one). */
interface Held {
  ref: PDFRef
  dict: PDFDict
}

function acroForm(doc: PDFDocument, newRef: PDFRef, changed: Set<PDFRef>): Held {
  const { context, catalog } = doc
  const catalogRef = context.trailerInfo.Root
  if (!(catalogRef instanceof PDFRef)) throw new Error('cannot seal: the trailer /Root is not a reference')
  const existing = catalog.get(PDFName.of('AcroForm'))
  if (existing instanceof PDFRef) {
    const dict = context.lookup(existing)
    if (dict instanceof PDFDict) return { ref: existing, dict }
  }
  if (existing instanceof PDFDict) return { ref: catalogRef, dict: existing }
  const dict = context.obj({})
  context.assign(newRef, dict)
  catalog.set(PDFName.of('AcroForm'), newRef)
  changed.add(catalogRef)
  changed.add(newRef)
  return { ref: newRef, dict }
}

/** Appends to an array entry, rewriting the array itself when it is an indirect object. */
function appendTo(context: PDFContext, holder: Held, key: string, item: PDFRef, changed: Set<PDFRef>): void {
  const value = holder.dict.get(PDFName.of(key))
  const target = value instanceof PDFRef ? context.lookup(value) : value
  if (target instanceof PDFArray) {
    target.push(item)
    changed.add(value instanceof PDFRef ? value : holder.ref)
    return
  }
  holder.dict.set(PDFName.of(key), context.obj([item]))
  changed.add(holder.ref)
}

/** §12.7.3.2: field names are unique; a document sealed twice gets "Paraph seal 2". */
function freeFieldName(context: PDFContext, form: PDFDict): string {
  const fields = form.lookup(PDFName.of('Fields'))
  const taken = new Set<string>()
  if (fields instanceof PDFArray) {
    for (const field of fields.asArray()) {
      const dict = context.lookup(field)
      const title = dict instanceof PDFDict ? dict.lookup(PDFName.of('T')) : undefined
      if (title instanceof PDFString || title instanceof PDFHexString) taken.add(title.decodeText())
    }
  }
  let name = 'Paraph seal'
  for (let n = 2; taken.has(name); n++) name = `Paraph seal ${n}`
  return name
}
