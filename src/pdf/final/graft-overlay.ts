// Places the overlay (overlay.ts: the values and footers drawn with pdf-lib) on the original's pages
// with MuPDF, as new objects and a few changed page dictionaries, so an incremental save appends
// them and leaves the original's bytes as they were. Each overlay page becomes a form XObject:
// - on an ordinary page, drawn after the page's own content, which is wrapped in q … Q so a
//   transformation it leaves behind cannot move the overlay, and marked as an /Artifact so a tagged
//   PDF stays valid (ISO 32000-1 §14.8.2.2: content outside the logical structure);
// - on a certified page (DocMDP P=2 or 3), as the appearance of a locked annotation instead, since
//   the certification forbids changing page content (§12.8.2.2).
import * as mupdf from 'mupdf'

export type OverlayPlacement = 'content' | 'annotation'

/** pdf-lib's page content streams are never shared, so each page's is read once. */
function pageContent(page: mupdf.PDFObject): Uint8Array {
  const contents = page.get('Contents')
  if (contents.isStream()) return contents.readStream().asUint8Array()
  const parts: Uint8Array[] = []
  if (contents.isArray()) {
    for (let i = 0; i < contents.length; i++) parts.push(contents.get(i).readStream().asUint8Array())
  }
  return Buffer.concat(parts.flatMap((part) => [part, Buffer.from('\n')]))
}

/** The page's boxes are the overlay's (overlay.ts copies them), normalized for a form's /BBox. */
function boundingBox(page: mupdf.PDFObject): number[] {
  const box = page.getInheritable('MediaBox')
  const [a, b, c, d] = [0, 1, 2, 3].map((i) => box.get(i).asNumber()) as [number, number, number, number]
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)]
}

/** A name not yet used among the page's XObjects. */
function freeName(xobjects: mupdf.PDFObject): string {
  let name = 'ParaphOverlay'
  for (let n = 2; !xobjects.get(name).isNull(); n++) name = `ParaphOverlay${n}`
  return name
}

/**
 * A copy of a dictionary made the page's own, so adding to it changes no other page: resources are
 * often one object shared by every page, or inherited from the page tree.
 */
function ownCopy(doc: mupdf.PDFDocument, source: mupdf.PDFObject): mupdf.PDFObject {
  const copy = doc.newDictionary()
  if (source.isDictionary()) {
    source.forEach((value, key) => {
      copy.put(key, value)
    })
  }
  return copy
}

/** Streams every page can share: opening the wrap, and closing it and drawing the overlay. */
class SharedStreams {
  private open?: mupdf.PDFObject
  private readonly close = new Map<string, mupdf.PDFObject>()
  private readonly doc: mupdf.PDFDocument
  constructor(doc: mupdf.PDFDocument) {
    this.doc = doc
  }

  opening(): mupdf.PDFObject {
    this.open ??= this.doc.addStream('q\n', {})
    return this.open
  }

  closing(name: string): mupdf.PDFObject {
    let stream = this.close.get(name)
    if (!stream) {
      stream = this.doc.addStream(`Q\n/Artifact BMC\n/${name} Do\nEMC\n`, {})
      this.close.set(name, stream)
    }
    return stream
  }
}

/** Draws overlay page i on page i of `doc`, for every page; `overlay` has as many pages. */
export function graftOverlay(doc: mupdf.PDFDocument, overlay: Uint8Array, placement: OverlayPlacement): void {
  const source = new mupdf.PDFDocument(overlay)
  try {
    const map = doc.newGraftMap()
    const shared = new SharedStreams(doc)
    const count = doc.countPages()
    if (source.countPages() !== count) {
      throw new Error(`the overlay has ${source.countPages()} pages, the document ${count}`)
    }
    for (let i = 0; i < count; i++) {
      const from = source.findPage(i)
      const bbox = boundingBox(from)
      const form = doc.addStream(pageContent(from), {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: bbox,
        Resources: map.graftObject(from.get('Resources')),
      })
      const page = doc.findPage(i)
      if (placement === 'content') drawAfterContent(doc, page, form, shared)
      else addLockedAnnotation(doc, page, form, bbox)
    }
  } finally {
    source.destroy()
  }
}

function drawAfterContent(
  doc: mupdf.PDFDocument,
  page: mupdf.PDFObject,
  form: mupdf.PDFObject,
  shared: SharedStreams,
): void {
  const resources = ownCopy(doc, page.getInheritable('Resources'))
  const xobjects = ownCopy(doc, resources.get('XObject'))
  const name = freeName(xobjects)
  xobjects.put(name, form)
  resources.put('XObject', xobjects)
  page.put('Resources', resources)
  const contents = doc.newArray()
  contents.push(shared.opening())
  // Only streams: a reference to a deleted (free) object reads as null, and readers warn of it.
  const old = page.get('Contents')
  if (old.isArray()) {
    for (let i = 0; i < old.length; i++) if (old.get(i).isStream()) contents.push(old.get(i))
  } else if (old.isStream()) contents.push(old)
  contents.push(shared.closing(name))
  page.put('Contents', contents)
}

/** §12.5.3 flags: Print (4) | ReadOnly (64) | Locked (128) | LockedContents (512). */
const LOCKED_PRINTED = 4 | 64 | 128 | 512

function addLockedAnnotation(
  doc: mupdf.PDFDocument,
  page: mupdf.PDFObject,
  form: mupdf.PDFObject,
  bbox: number[],
): void {
  const annotation = doc.addObject({
    Type: 'Annot',
    Subtype: 'Stamp',
    Rect: bbox,
    F: LOCKED_PRINTED,
    NM: '(paraph-overlay)',
    Contents: '(Values entered by the signers and the signature footer, added by Paraph)',
    P: page,
    AP: { N: form },
  })
  const annots = page.get('Annots')
  if (annots.isArray()) annots.push(annotation)
  else page.put('Annots', [annotation])
}
