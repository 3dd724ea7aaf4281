// What a PDF is, as tools that are not Paraph's engine read it: qpdf (structure, encryption, forms,
// outlines) and poppler (signatures, text). Every check takes bytes, writes them to a private
// temporary file and runs the tool with a timeout, so a test states facts a viewer would see and
// never trusts the library that wrote the file. A tool's failure throws a ToolError with its output.
import { type QpdfValue, qpdfJson, qpdfObjects, REFERENCE, textOf } from './qpdf-json.ts'
import { runOn, ToolError } from './run-tool.ts'

export { type QpdfValue, ToolError, textOf }

// --- qpdf ---------------------------------------------------------------------------------------

export interface QpdfCheck {
  /** qpdf's exit status: 0 clean, 3 warnings (it repaired the file on reading), 2 errors. */
  code: 0 | 2 | 3
  output: string
}

export async function qpdfCheck(bytes: Uint8Array): Promise<QpdfCheck> {
  const { code, stdout, stderr } = await runOn(bytes, 'qpdf', ['--check'], [0, 2, 3])
  return { code: code as 0 | 2 | 3, output: `${stdout}${stderr}` }
}

/** qpdf's answer exit code, for the questions it answers that way. */
async function qpdfStatus(bytes: Uint8Array, option: string): Promise<number> {
  return (await runOn(bytes, 'qpdf', [option], [0, 2, 3])).code
}

/** The file has an /Encrypt dictionary, whatever its passwords. */
export const isEncrypted = async (bytes: Uint8Array) => (await qpdfStatus(bytes, '--is-encrypted')) === 0

/** Opening it needs a password other than the empty one. */
export const requiresPassword = async (bytes: Uint8Array) =>
  (await qpdfStatus(bytes, '--requires-password')) === 0

/**
 * The standard security handler's revision (ISO 32000-2 §7.6.4: 2 = RC4 40-bit, 3 = RC4 128,
 * 4 = RC4 or AES-128, 6 = AES-256), read without a password; undefined when not encrypted.
 */
export async function encryptionRevision(bytes: Uint8Array): Promise<number | undefined> {
  const { stdout } = await runOn(bytes, 'qpdf', ['--warning-exit-0', '--show-encryption'])
  const revision = /^R = (\d+)$/m.exec(stdout)?.[1]
  return revision === undefined ? undefined : Number(revision)
}

/** Pages as qpdf counts them (after repairing the file if it must). */
export async function pageCount(bytes: Uint8Array): Promise<number> {
  const { stdout } = await runOn(bytes, 'qpdf', ['--warning-exit-0', '--show-npages'])
  return Number(stdout.trim())
}

/** The catalog dictionary (the trailer's /Root), read through object streams and repairs alike. */
export async function catalog(bytes: Uint8Array): Promise<Record<string, QpdfValue>> {
  const trailer = (await qpdfObjects(bytes, ['trailer'])).get('trailer') as
    | Record<string, QpdfValue>
    | undefined
  const root = trailer?.['/Root']
  const match = typeof root === 'string' ? REFERENCE.exec(root) : null
  if (!match)
    throw new ToolError('qpdf', null, `the trailer has no /Root reference: ${JSON.stringify(trailer)}`)
  return dictionaryAt(bytes, root as string)
}

/** The value of an indirect object ("N G R"), a stream's dictionary for a stream; null if absent. */
export async function objectAt(bytes: Uint8Array, reference: string): Promise<QpdfValue> {
  const number = REFERENCE.exec(reference)?.[1]
  if (number === undefined) throw new Error(`not an indirect reference: ${reference}`)
  return (await qpdfObjects(bytes, [number])).get(`obj:${reference}`) ?? null
}

/** The dictionary an indirect reference points at ({} for anything else). */
async function dictionaryAt(bytes: Uint8Array, reference: string): Promise<Record<string, QpdfValue>> {
  const number = REFERENCE.exec(reference)?.[1]
  if (number === undefined) return {}
  const value = (await qpdfObjects(bytes, [number])).get(`obj:${reference}`)
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {}
}

/** The catalog's keys without their slash: "Pages", "Outlines", "AcroForm", "StructTreeRoot"… */
export async function catalogKeys(bytes: Uint8Array): Promise<Set<string>> {
  return new Set(Object.keys(await catalog(bytes)).map((key) => key.slice(1)))
}

/** ISO 32000-1 §14.8: a tagged PDF has a structure tree and says so in /MarkInfo /Marked true. */
export async function isTagged(bytes: Uint8Array): Promise<boolean> {
  const root = await catalog(bytes)
  if (root['/StructTreeRoot'] === undefined) return false
  let markInfo = root['/MarkInfo']
  if (typeof markInfo === 'string') markInfo = await dictionaryAt(bytes, markInfo)
  return typeof markInfo === 'object' && markInfo !== null && !Array.isArray(markInfo)
    ? markInfo['/Marked'] === true
    : false
}

export type FieldType = 'text' | 'checkbox' | 'radio' | 'pushbutton' | 'choice' | 'signature'

export interface FormField {
  /** The fully qualified name (parent names joined with dots). */
  name: string
  type: FieldType
  /** Text as text, a name without its slash ("Yes", "Off", an export value), null when unset. */
  value: string | null
  /** Field flag bit 1 (ISO 32000-1 §12.7.3.1 table 221). */
  readOnly: boolean
  /** Its widgets' pages, 1-based, in order. */
  pages: number[]
}

interface QpdfField {
  /** The terminal field ("N G R"), which may be its one widget too. */
  object: string
  fullname: string
  fieldtype: string
  fieldflags: number
  value: QpdfValue
  ischeckbox: boolean
  isradiobutton: boolean
  pageposfrom1: number
}

/**
 * The fields reachable from /AcroForm (its /Fields and their /Kids), one entry per field. qpdf
 * lists one entry per widget, and also widgets on pages that /AcroForm does not reach (it warns
 * "widget annotation is not reachable from /AcroForm"): those are not fields a viewer can fill,
 * and orphanWidgets counts them.
 */
export async function formFields(bytes: Uint8Array): Promise<FormField[]> {
  const { widgets, reachable } = await acroformWidgets(bytes)
  const byName = new Map<string, FormField>()
  for (const widget of widgets.filter((w) => reachable.has(w.object))) {
    const known = byName.get(widget.fullname)
    if (known) {
      known.pages.push(widget.pageposfrom1)
      continue
    }
    byName.set(widget.fullname, {
      name: widget.fullname,
      type: fieldType(widget),
      value: textOf(widget.value),
      readOnly: (widget.fieldflags & 1) === 1,
      pages: [widget.pageposfrom1],
    })
  }
  return [...byName.values()]
}

/** Widget annotations on the pages whose field /AcroForm does not reach. */
export async function orphanWidgets(bytes: Uint8Array): Promise<number> {
  const { widgets, reachable } = await acroformWidgets(bytes)
  return widgets.filter((w) => !reachable.has(w.object)).length
}

/** qpdf's widgets, and the references of every field node reachable from the catalog's /AcroForm. */
async function acroformWidgets(bytes: Uint8Array): Promise<{ widgets: QpdfField[]; reachable: Set<string> }> {
  const json = await qpdfJson(bytes, ['--json-key=acroform', '--json-key=qpdf'])
  const [, objects] = json.qpdf as [unknown, Record<string, { value?: QpdfValue }>]
  const resolve = (value: QpdfValue | undefined): QpdfValue | undefined =>
    typeof value === 'string' && REFERENCE.test(value) ? objects[`obj:${value}`]?.value : value
  const asDict = (value: QpdfValue | undefined) =>
    value && typeof value === 'object' && !Array.isArray(value) ? value : {}
  const root = asDict(resolve(asDict(objects.trailer?.value)['/Root']))
  const pending = [resolve(asDict(resolve(root['/AcroForm']))['/Fields'])].flat()
  const reachable = new Set<string>()
  // A set, not recursion: a /Kids cycle in a damaged file ends here.
  while (pending.length > 0) {
    const ref = pending.pop()
    if (typeof ref !== 'string' || reachable.has(ref)) continue
    reachable.add(ref)
    pending.push(...[resolve(asDict(resolve(ref))['/Kids'])].flat())
  }
  return { widgets: (json.acroform as { fields: QpdfField[] }).fields, reachable }
}

function fieldType(field: QpdfField): FieldType {
  if (field.fieldtype === '/Tx') return 'text'
  if (field.fieldtype === '/Ch') return 'choice'
  if (field.fieldtype === '/Sig') return 'signature'
  if (field.ischeckbox) return 'checkbox'
  return field.isradiobutton ? 'radio' : 'pushbutton'
}

interface QpdfOutline {
  title: string
  kids: QpdfOutline[]
}

/** Every outline (bookmark) title, depth first, in document order. */
export async function outlineTitles(bytes: Uint8Array): Promise<string[]> {
  const json = await qpdfJson(bytes, ['--json-key=outlines'])
  const titles: string[] = []
  const walk = (items: QpdfOutline[]) => {
    for (const item of items) {
      titles.push(item.title)
      walk(item.kids)
    }
  }
  walk(json.outlines as QpdfOutline[])
  return titles
}

/** The embedded files' names (keys of /Names /EmbeddedFiles). */
export async function attachmentNames(bytes: Uint8Array): Promise<string[]> {
  const json = await qpdfJson(bytes, ['--json-key=attachments'])
  return Object.keys(json.attachments as Record<string, unknown>)
}

export interface PageLabelRange {
  /** 0-based index of the range's first page. */
  firstPage: number
  /** /S without its slash: D, R, r, A, a; absent for labels that are only a prefix. */
  style?: string
  prefix?: string
  start?: number
}

/** The /PageLabels number tree's ranges, as qpdf reads it. */
export async function pageLabels(bytes: Uint8Array): Promise<PageLabelRange[]> {
  const json = await qpdfJson(bytes, ['--json-key=pagelabels'])
  const ranges = json.pagelabels as Array<{ index: number; label: Record<string, QpdfValue> }>
  return ranges.map(({ index, label }) => ({
    firstPage: index,
    ...(label['/S'] === undefined ? {} : { style: textOf(label['/S'])! }),
    ...(label['/P'] === undefined ? {} : { prefix: textOf(label['/P'])! }),
    ...(typeof label['/St'] === 'number' ? { start: label['/St'] } : {}),
  }))
}

// --- poppler --------------------------------------------------------------------------------------

export interface PdfsigSignature {
  /** 1-based, in pdfsig's order (the order of the signature fields). */
  index: number
  fieldName?: string
  /** The signer certificate's common name; absent for an unsigned field. */
  signer?: string
  /** The field has a signature value (pdfsig did not say "The signature form field is not signed."). */
  signed: boolean
  /** "Signature Validation: Signature is Valid." */
  valid: boolean
  /** What pdfsig said after "Signature Validation:" ("Digest Mismatch.", …). */
  validation?: string
  /** "Total document signed" (its byte range reaches the end of the file), not "Not total document signed". */
  totalDocumentSigned: boolean
  /** "Signed Ranges: [0 - 1322], [5118 - 5516]": the byte ranges, as [start, end) pairs. */
  signedRanges: Array<[number, number]>
  /** The /SubFilter as pdfsig names it ("ETSI.CAdES.detached", "adbe.pkcs7.detached"). */
  type?: string
  /** pdfsig's lines for this signature. */
  raw: string
}

/**
 * The signatures pdfsig (poppler 22.12) finds and its verdict on each; [] when it reports none.
 * The certificate of a self-signed seal is "issuer unknown": that is not part of `valid`.
 */
export async function pdfsig(bytes: Uint8Array): Promise<PdfsigSignature[]> {
  const { code, stdout } = await runOn(bytes, 'pdfsig', [], [0, 2])
  if (code === 2) {
    if (/does not contain any signatures/.test(stdout)) return []
    throw new ToolError('pdfsig', code, stdout)
  }
  return stdout
    .split(/^(?=Signature #\d+:$)/m)
    .filter((block) => block.startsWith('Signature #'))
    .map(parseSignature)
}

function parseSignature(raw: string): PdfsigSignature {
  const line = (label: string) => new RegExp(`^\\s*- ${label}: (.*)$`, 'm').exec(raw)?.[1]?.trim()
  const signer = line('Signer Certificate Common Name')
  const fieldName = line('Signature Field Name')
  const validation = line('Signature Validation')
  const type = line('Signature Type')
  return {
    index: Number(/^Signature #(\d+):/.exec(raw)![1]),
    ...(fieldName === undefined ? {} : { fieldName }),
    ...(signer === undefined || signer === '(null)' ? {} : { signer }),
    signed: !/The signature form field is not signed\./.test(raw),
    valid: validation === 'Signature is Valid.',
    ...(validation === undefined ? {} : { validation }),
    totalDocumentSigned: /^\s*- Total document signed$/m.test(raw),
    signedRanges: [...(line('Signed Ranges') ?? '').matchAll(/\[(\d+) - (\d+)\]/g)].map(
      (range) => [Number(range[1]), Number(range[2])] as [number, number],
    ),
    ...(type === undefined ? {} : { type }),
    raw: raw.trimEnd(),
  }
}

/**
 * The text poppler reads, in content-stream order (`-raw`: a value drawn in one string comes back
 * whole), pages separated by form feeds; `firstPage`/`lastPage` are 1-based and inclusive.
 */
export async function pdftotext(
  bytes: Uint8Array,
  options: { firstPage?: number; lastPage?: number } = {},
): Promise<string> {
  const range = [
    ...(options.firstPage === undefined ? [] : ['-f', String(options.firstPage)]),
    ...(options.lastPage === undefined ? [] : ['-l', String(options.lastPage)]),
  ]
  const { stdout } = await runOn(bytes, 'pdftotext', (path) => ['-enc', 'UTF-8', '-raw', ...range, path, '-'])
  return stdout
}
