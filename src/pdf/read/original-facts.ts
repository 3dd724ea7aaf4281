// What a document's own form says about how it may be signed again (ISO 32000-1 §12.7, §12.8):
// whether its author certified it against changes (DocMDP), which signatures it already carries, and
// its fields made read-only once the signers' values are in. Read and changed with MuPDF.
import type * as mupdf from 'mupdf'
import type { AuditEarlierSignature } from '../audit/audit-record.ts'

/** §12.8.2.2 table 254: 1 no changes; 2 form filling and signing; 3 also annotations. */
export type CertificationLevel = 1 | 2 | 3

export type EarlierSignature = AuditEarlierSignature

/** The certification's level, or undefined when the document is not certified. */
export function certificationLevel(doc: mupdf.PDFDocument): CertificationLevel | undefined {
  const signature = doc.getTrailer().get('Root', 'Perms', 'DocMDP')
  if (!signature.isDictionary()) return undefined
  const references = signature.get('Reference')
  for (let i = 0; references.isArray() && i < references.length; i++) {
    const reference = references.get(i)
    if (reference.get('TransformMethod').isName() && reference.get('TransformMethod').asName() === 'DocMDP') {
      const p = reference.get('TransformParams', 'P')
      // §12.8.2.2: /P absent means 2.
      const level = p.isNumber() ? p.asNumber() : 2
      return level === 1 || level === 3 ? level : 2
    }
  }
  return 2
}

/** Far beyond any real form; a forged /Fields of millions of entries stops here. */
const MAX_FIELDS = 20_000

/** Depth-first over the field tree, with each field's full name and inherited type (§12.7.3.1). */
function eachField(
  doc: mupdf.PDFDocument,
  visit: (field: mupdf.PDFObject, name: string, type: string | undefined, terminal: boolean) => void,
): void {
  const fields = doc.getTrailer().get('Root', 'AcroForm', 'Fields')
  const seen = new Set<number>()
  let visited = 0
  const walk = (
    field: mupdf.PDFObject,
    parentName: string,
    parentType: string | undefined,
    depth: number,
  ) => {
    // A cycle, an absurd depth or millions of fields in a hostile file end the walk, not the process.
    if (depth > 32 || visited++ >= MAX_FIELDS || !field.isDictionary()) return
    if (field.isIndirect()) {
      if (seen.has(field.asIndirect())) return
      seen.add(field.asIndirect())
    }
    const title = field.get('T')
    const name = title.isString()
      ? parentName
        ? `${parentName}.${title.asString()}`
        : title.asString()
      : parentName
    const ft = field.get('FT')
    const type = ft.isName() ? ft.asName() : parentType
    const kids = field.get('Kids')
    let childFields = 0
    for (let i = 0; kids.isArray() && i < kids.length; i++) {
      // Kids without /T are the field's widgets, not fields (§12.7.3.1).
      if (kids.get(i).get('T').isString()) {
        childFields++
        walk(kids.get(i), name, type, depth + 1)
      }
    }
    visit(field, name, type, childFields === 0)
  }
  const count = fields.isArray() ? Math.min(fields.length, MAX_FIELDS) : 0
  for (let i = 0; i < count; i++) walk(fields.get(i), '', undefined, 0)
}

/** Signed signature fields (their /V a signature dictionary), in the form's order. */
export function earlierSignatures(doc: mupdf.PDFDocument): EarlierSignature[] {
  const found: EarlierSignature[] = []
  eachField(doc, (field, name, type, terminal) => {
    const value = field.get('V')
    if (!terminal || type !== 'Sig' || !value.isDictionary()) return
    const text = (key: string) => (value.get(key).isString() ? value.get(key).asString() : null)
    const subFilter = value.get('SubFilter')
    found.push({
      field: name,
      name: text('Name'),
      signed_at: isoOfPdfDate(text('M')),
      format: subFilter.isName() ? subFilter.asName() : null,
    })
  })
  return found
}

/**
 * Sets ReadOnly (§12.7.3.1 table 221, bit 1) on every terminal field but signature fields, so the
 * values the document was signed with cannot be edited in a viewer. Returns how many changed.
 */
export function makeFieldsReadOnly(doc: mupdf.PDFDocument): number {
  let changed = 0
  eachField(doc, (field, _name, type, terminal) => {
    if (!terminal || type === 'Sig') return
    const flags = field.get('Ff')
    const value = flags.isNumber() ? flags.asNumber() : 0
    if ((value & 1) === 0) {
      field.put('Ff', value | 1)
      changed++
    }
  })
  return changed
}

/** §7.9.4 D:YYYYMMDDHHmmSSOHH'mm' (any tail may be missing) as ISO 8601, or the text as written. */
export function isoOfPdfDate(text: string | null): string | null {
  if (text === null) return null
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(text)
  if (!match) return text
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = match
  const zone = !sign || sign === 'Z' || sign === 'z' ? 'Z' : `${sign}${oh}:${om}`
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`)
  return Number.isNaN(date.getTime()) ? text : date.toISOString()
}
