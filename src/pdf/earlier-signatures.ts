// What earlier signers left on an uploaded PDF: a certification (ISO 32000-1 §12.8.2.2, DocMDP) and
// signed signature fields. Intake refuses a document certified against any change; the finalizer
// signs within what a certification allows and the audit trail names the earlier signatures.
import type * as mupdf from 'mupdf'

/** §12.8.2.2 table 254: 1 no change; 2 filling forms and signing; 3 that and annotating. */
export type DocMdpLevel = 1 | 2 | 3

// Table 254: "Default value: 2". A /P outside 1–3 is read as if it were absent, as the default.
const DEFAULT_LEVEL: DocMdpLevel = 2

/**
 * The DocMDP level of a certified document, or undefined for one that is not certified: the
 * catalog's /Perms /DocMDP is the certification signature, whose /Reference lists a signature
 * reference dictionary with /TransformMethod /DocMDP and the level in /TransformParams /P.
 */
export function certificationLevel(doc: mupdf.PDFDocument): DocMdpLevel | undefined {
  const signature = doc.getTrailer().get('Root', 'Perms', 'DocMDP')
  if (!signature.isDictionary()) return undefined
  const references = signature.get('Reference')
  for (let i = 0; i < (references.isArray() ? references.length : 0); i++) {
    const reference = references.get(i)
    if (!reference.isDictionary() || nameOf(reference.get('TransformMethod')) !== 'DocMDP') continue
    const level = reference.get('TransformParams', 'P')
    return level.isInteger() && [1, 2, 3].includes(level.asNumber())
      ? (level.asNumber() as DocMdpLevel)
      : DEFAULT_LEVEL
  }
  return DEFAULT_LEVEL
}

// Counting stops after this many field nodes (a lower bound is then returned), so a hostile /Kids
// costs bounded work: ~20 µs a node, measured; real forms hold hundreds of fields.
export const MAX_FIELD_NODES = 10_000

interface Visit {
  node: mupdf.PDFObject
  /** /FT is inheritable (§12.7.3.1): a widget under a /Sig field is part of that field. */
  type: string | undefined
}

/**
 * Signed signature fields in the form (/AcroForm /Fields and their /Kids): fields of type /Sig
 * whose /V is a signature dictionary. Each indirect node is visited once, so a looping field tree
 * ends, and at most MAX_FIELD_NODES nodes are visited.
 */
export function countSignedFields(doc: mupdf.PDFDocument): number {
  const stack: Visit[] = []
  const pushKids = (kids: mupdf.PDFObject, type: string | undefined) => {
    for (let i = (kids.isArray() ? kids.length : 0) - 1; i >= 0; i--) stack.push({ node: kids.get(i), type })
  }
  pushKids(doc.getTrailer().get('Root', 'AcroForm', 'Fields'), undefined)
  const seen = new Set<number>()
  let signed = 0
  for (let visits = 0; stack.length > 0 && visits < MAX_FIELD_NODES; visits++) {
    const { node, type: inherited } = stack.pop()!
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) continue
      seen.add(node.asIndirect())
    }
    if (!node.isDictionary()) continue
    const type = nameOf(node.get('FT')) ?? inherited
    if (type === 'Sig' && node.get('V').isDictionary()) signed++
    pushKids(node.get('Kids'), type)
  }
  return signed
}

function nameOf(object: mupdf.PDFObject): string | undefined {
  return object.isName() ? object.asName() : undefined
}
