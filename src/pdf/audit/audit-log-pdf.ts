// The audit trail as a readable A4 PDF that reads like a certificate of completion
// (docs/security.md#audit-trail): title and legal level, a summary, the
// documents with their hashes, each signer as a block (details, how reached, acts with time and
// address, the signature and initials images they drew with their hashes, the consent in the
// language they saw, their values), the timeline in sentences with the event codes secondary, then
// how to verify the final PDF and, last, the completion. It is sealed afterwards like the final PDF,
// so this ends with an ordinary pdf-lib save().
import { createHash } from 'node:crypto'
import { PDFDocument } from 'pdf-lib'
import { addFooters } from '../final/footer.ts'
import { compressContentNatively, SAVE_IN_ONE_GO } from '../final/overlay.ts'
import { type EmbeddedImage, embedPngNatively } from '../final/png-image.ts'
import { embedFont } from '../text/fonts.ts'
import { widthAt } from '../text/text-fit.ts'
import type {
  AuditEvent,
  AuditFieldValue,
  AuditImageValue,
  AuditRecord,
  AuditSubmitter,
} from './audit-record.ts'
import {
  completionSentence,
  eventSentence,
  languageName,
  signerName,
  verificationSentence,
} from './audit-sentences.ts'
import { type Cell, type Column, Flow, type FlowFonts, MUTED, type Run } from './flow-layout.ts'

export interface AuditLogPdfOptions {
  /** Where Debian's font packages put their files; fonts.ts DEFAULT_FONT_DIR when absent. */
  fontDir?: string
  /**
   * The signature and initials PNGs by their SHA-256 (the finalizer child has them as files): each
   * is drawn beside its signer, once embedded however often it is used. An image missing here, or
   * whose bytes do not hash to its key, is named by its hash alone.
   */
  images?: ReadonlyMap<string, Uint8Array>
}

const EMPTY = '—'
const label = (text: string): Cell => [{ text, color: MUTED }]
const plain = (text: string | null | undefined): Cell => [{ text: text ?? EMPTY }]
const mono = (text: string, size = 7): Run => ({ text, font: 'mono', size })
const muted = (text: string, size = 7): Run => ({ text, size, color: MUTED })
// Hashes and ids in DejaVu Sans Mono at 7 pt: 64 hex digits take 270 pt, within the value column.
const HASH_SIZE = 7
// The column of signature images beside a signer's details, and the frame each is drawn in.
const ASIDE_WIDTH = 150
const PICTURE = { width: 150, height: 56 }

type Pictures = ReadonlyMap<string, EmbeddedImage>

export async function auditLogPdf(
  record: AuditRecord,
  options: AuditLogPdfOptions = {},
): Promise<Uint8Array> {
  return (await auditLogDocument(record, options)).bytes
}

/** The audit PDF and the document it was saved from, for sealPdf (see buildFinalPdf). */
export async function auditLogDocument(
  record: AuditRecord,
  options: AuditLogPdfOptions = {},
): Promise<{ bytes: Uint8Array; doc: PDFDocument }> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setTitle(`Audit trail of ${record.submission_id}`)
  doc.setProducer('Paraph')
  const fonts: FlowFonts = {
    sans: await embedFont(doc, 'sans', options.fontDir),
    bold: await embedFont(doc, 'bold', options.fontDir),
    mono: await embedFont(doc, 'mono', options.fontDir),
  }
  const pictures = await embedPictures(doc, record, options.images)
  const flow = new Flow(doc, fonts)
  writeTitle(flow, record)
  writeDocuments(flow, record)
  writeDocumentFacts(flow, record)
  for (const [i, submitter] of record.submitters.entries()) {
    writeSubmitter(flow, submitter, i, record.submitters.length, pictures)
  }
  writeEvents(flow, record, fonts)
  writeClosing(flow, record)
  addFooters(doc, fonts.sans, (n, m) => ['Audit trail', record.submission_id, `page ${n} of ${m}`], {
    bottom: 24,
  })
  compressContentNatively(doc)
  return { bytes: await doc.save(SAVE_IN_ONE_GO), doc }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The images the signers' values name, each embedded once; only bytes that match their hash. */
async function embedPictures(
  doc: PDFDocument,
  record: AuditRecord,
  images: ReadonlyMap<string, Uint8Array> | undefined,
): Promise<Pictures> {
  const pictures = new Map<string, EmbeddedImage>()
  if (!images) return pictures
  for (const image of record.submitters.flatMap(imageValues)) {
    const png = images.get(image.sha256)
    if (!png || pictures.has(image.sha256) || sha256(png) !== image.sha256) continue
    pictures.set(image.sha256, embedPngNatively(doc, png) ?? (await doc.embedPng(png)))
  }
  return pictures
}

function isImage(value: AuditFieldValue['value']): value is AuditImageValue {
  return typeof value === 'object' && value !== null
}

function imageValues(s: AuditSubmitter): AuditImageValue[] {
  return s.values.map((v) => v.value).filter(isImage)
}

function keyValues(flow: Flow, rows: Array<[string, Cell]>, width = flow.width): void {
  const labelWidth = 110
  const columns: Column[] = [
    { title: '', width: labelWidth },
    { title: '', width: width - labelWidth },
  ]
  flow.table(
    columns,
    rows.map(([name, value]) => [label(name), value]),
    { header: false, width },
  )
}

function writeTitle(flow: Flow, record: AuditRecord): void {
  flow.heading('Audit trail — certificate of completion', 18, 200)
  flow.paragraph({ text: record.legal_level, size: 10 })
  flow.paragraph({
    text: 'Times are UTC (ISO 8601). Hashes are SHA-256, in hexadecimal.',
    size: 8,
    color: MUTED,
  })
  flow.gap(10)
  keyValues(flow, [
    ['Submission', [mono(record.submission_id, 8)]],
    ['Status', plain(record.status)],
    ['Created', plain(record.created_at)],
    ['Completed', plain(record.completed_at)],
    ['Signers', plain(String(record.submitters.length))],
    ['Events', plain(String(record.events.length))],
    [
      'Final PDF',
      record.final_pdf
        ? [mono(record.final_pdf.sha256, HASH_SIZE), { text: pages(record.final_pdf.page_count) }]
        : plain('not produced: the submission is not completed'),
    ],
    ...timestampRow(record),
  ])
  flow.gap(18)
}

function pages(count: number): string {
  return `${count} page${count === 1 ? '' : 's'}`
}

function writeDocuments(flow: Flow, record: AuditRecord): void {
  flow.heading('Documents, as sent', 13)
  const rows = record.documents.map((d, i): Cell[] => [
    plain(String(i + 1)),
    plain(d.name),
    plain(pages(d.page_count)),
    [mono(d.sha256, HASH_SIZE)],
  ])
  flow.table(
    [
      { title: '#', width: 20 },
      { title: 'Name', width: 140 },
      { title: 'Pages', width: 50 },
      { title: 'SHA-256', width: flow.width - 210 },
    ],
    rows,
  )
  flow.gap(18)
}

function timestampRow(record: AuditRecord): Array<[string, Cell]> {
  const timestamp = record.final_pdf?.timestamp
  if (!timestamp) return []
  return [['Time-stamp', plain(`${timestamp.time}, certified by ${timestamp.authority} (RFC 3161)`)]]
}

/** How each document went into the final PDF, in sentences. */
export function documentFactSentences(record: AuditRecord): string[] {
  const sentences: string[] = []
  for (const [i, d] of record.documents.entries()) {
    const which = `Document ${i + 1} (${d.name})`
    if (d.encrypted) sentences.push(`${which} was encrypted with an empty password; it is signed decrypted.`)
    if (d.repaired) sentences.push(`${which} was damaged; it is signed as repaired.`)
    if (d.rewritten_sha256)
      sentences.push(`SHA-256 of the file signed in place of document ${i + 1}: ${d.rewritten_sha256}.`)
    else if (i === 0 && d.encrypted === false) {
      sentences.push(`The final PDF begins with the exact bytes of ${which.toLowerCase()} as sent.`)
    }
    if (d.certification) {
      const allowed =
        d.certification === 3 ? 'form filling, signing and annotations' : 'form filling and signing'
      sentences.push(
        `${which} is certified by its author (changes allowed: ${allowed}); the values and the footer are added as locked annotations.`,
      )
    }
    for (const signature of d.signatures ?? []) {
      const by = signature.name ? ` by ${signature.name}` : ''
      const at = signature.signed_at ? ` on ${signature.signed_at}` : ''
      const kept =
        i === 0 && !d.rewritten_sha256
          ? 'it remains valid for the document as sent'
          : 'it cannot remain valid in the final PDF'
      sentences.push(`${which} carried a signature${by}${at} (field "${signature.field}"); ${kept}.`)
    }
  }
  return [...sentences, ...(record.final_pdf?.notes ?? [])]
}

function writeDocumentFacts(flow: Flow, record: AuditRecord): void {
  const sentences = documentFactSentences(record)
  if (sentences.length === 0) return
  for (const text of sentences) flow.paragraph({ text, size: 8 })
  flow.gap(14)
}

const DELIVERY: Record<AuditSubmitter['delivery'], string> = {
  email: 'signing request e-mailed to the signer',
  link: 'signing link handed on by the sender',
  embed: "form embedded in the sender's application",
}

/** When, from where and with what browser a person acted, on lines of their own. */
function act(at: string | null, ip: string | null, userAgent: string | null): Cell {
  if (!at) return plain(null)
  return [{ text: at }, { text: `from ${ip ?? EMPTY}` }, muted(userAgent ?? EMPTY)]
}

/** The consent quoted as the signer read it, and in which language. */
function consentCell(s: AuditSubmitter): Cell {
  if (!s.consent_text) return plain(null)
  const how = s.status === 'declined' ? 'shown; the signer declined' : 'accepted by signing'
  const language = s.consent_language
    ? `in ${languageName(s.consent_language)}`
    : "the page's language was not recorded: the English wording"
  return [muted(`${how}, ${language}:`, 7.5), { text: `“${s.consent_text}”` }]
}

const MEMBER_STATUS: Record<string, string> = {
  signed: 'signed for the role',
  superseded: 'did not sign: another member signed',
  declined: 'declined for the role',
  pending: 'had not signed',
}

/** docs/api.md#signer-groups: each member of a group, and what became of them. */
function membersCell(s: AuditSubmitter): Cell {
  const members = s.members ?? []
  return [
    muted(`any one of ${members.length} people, each asked with a link of their own:`, 7.5),
    ...members.map((m) => ({ text: `${signerName(m)} — ${MEMBER_STATUS[m.status] ?? m.status}` })),
  ]
}

function signerRows(s: AuditSubmitter): Array<[string, Cell]> {
  const rows: Array<[string, Cell]> = [
    ['Name', plain(s.name)],
    ['E-mail', plain(s.email)],
    ['Role', plain(s.role)],
    ...(s.members?.length ? [['Signer group', membersCell(s)] as [string, Cell]] : []),
    ['Submitter', [mono(s.id, 8)]],
    ['Reached by', plain(DELIVERY[s.delivery])],
    [
      'E-mail code (2FA)',
      plain(s.email_2fa_verified_at ? `e-mail code verified at ${s.email_2fa_verified_at}` : 'none entered'),
    ],
    ['Status', plain(s.status)],
    // A group's first opening may be another member's: the timeline says whose.
    [
      s.members?.length ? 'Opened (first, by a member)' : 'Opened',
      act(s.opened_at, s.opened_ip, s.opened_user_agent),
    ],
  ]
  if (s.status === 'pre_signed')
    rows.push(['Signed', plain(`${s.signed_at ?? EMPTY}, pre-signed by the sender`)])
  else if (s.signed_at) rows.push(['Signed', act(s.signed_at, s.signed_ip, s.signed_user_agent)])
  if (s.declined_at) {
    rows.push(['Declined', act(s.declined_at, s.declined_ip, s.declined_user_agent)])
    rows.push(['Reason', plain(s.decline_reason)])
  }
  rows.push(['Consent', consentCell(s)])
  return rows
}

/** Each distinct image the signer drew, framed, with its field, size and hash under it. */
function signatureAside(s: AuditSubmitter, pictures: Pictures): Cell {
  const cell: Cell = []
  const seen = new Set<string>()
  for (const { name, type, value } of s.values) {
    if (!isImage(value) || seen.has(value.sha256)) continue
    seen.add(value.sha256)
    const kind = type === 'initials' ? 'Initials' : 'Signature'
    if (cell.length > 0) cell.push({ text: '', size: 5 })
    cell.push(muted(name.toLowerCase() === kind.toLowerCase() ? kind : `${kind} (${name})`, 7))
    const picture = pictures.get(value.sha256)
    if (picture) cell.push({ picture, ...PICTURE })
    else cell.push(muted('image not included in this file', 7))
    cell.push(muted(`PNG, ${value.width} × ${value.height} px, SHA-256:`, 6.5), mono(value.sha256, 6.5))
  }
  return cell
}

function writeSubmitter(
  flow: Flow,
  s: AuditSubmitter,
  index: number,
  count: number,
  pictures: Pictures,
): void {
  const aside = signatureAside(s, pictures)
  // The heading stays with the signature images, which are kept whole on one page.
  flow.heading(
    `Signer ${index + 1} of ${count}: ${s.name ?? s.email}`,
    12,
    Math.max(60, flow.measure(aside, ASIDE_WIDTH)),
  )
  if (aside.length > 0) flow.beside(aside, ASIDE_WIDTH, (width) => keyValues(flow, signerRows(s), width))
  else keyValues(flow, signerRows(s))
  if (s.values.length > 0) {
    flow.gap(6)
    flow.table(
      [
        { title: 'Field', width: 120 },
        { title: 'Type', width: 60 },
        { title: 'Value', width: flow.width - 180 },
      ],
      s.values.map((v) => [plain(v.name), plain(v.type), valueCell(v.value)]),
    )
  }
  flow.gap(18)
}

function valueCell(value: AuditFieldValue['value']): Cell {
  if (value === null) return [{ text: '(empty)', color: MUTED }]
  if (typeof value === 'boolean') return plain(value ? 'checked' : 'not checked')
  if (typeof value === 'object')
    return [{ text: `PNG image, ${value.width} × ${value.height} px` }, mono(value.sha256)]
  return plain(String(value))
}

/** The event in words, then its code and id, the browser and any change, smaller and muted. */
function eventCell(e: AuditEvent, record: AuditRecord): Cell {
  const cell: Cell = [{ text: e.description ?? eventSentence(e, record.submitters) }]
  if (e.details) cell.push({ text: e.details, size: 7.5 })
  if (e.user_agent) cell.push(muted(e.user_agent, 6.5))
  cell.push({ ...mono(`${e.type} · ${e.id}`, 6), color: MUTED })
  return cell
}

function writeEvents(flow: Flow, record: AuditRecord, fonts: FlowFonts): void {
  flow.heading('Timeline', 13)
  // Wide enough for a whole timestamp on one line, whatever the metrics.
  const timeWidth = Math.ceil(widthAt(fonts.sans, '0000-00-00T00:00:00.000Z', 7.5)) + 9
  const rows = record.events.map((e): Cell[] => [[{ text: e.created_at, size: 7.5 }], eventCell(e, record)])
  flow.table(
    [
      { title: 'Time (UTC)', width: timeWidth },
      { title: 'What happened', width: flow.width - timeWidth },
    ],
    rows,
  )
  flow.gap(18)
}

/** How to verify, then the completion as the trail's last line, kept together on one page. */
function writeClosing(flow: Flow, record: AuditRecord): void {
  const verification =
    record.verification ?? (record.final_pdf ? verificationSentence(record.final_pdf.sha256) : null)
  const completion = record.completion ?? completionSentence(record)
  const runs: Run[] = [
    ...(verification
      ? [
          { text: verification, size: 9 },
          {
            text: 'This audit trail is sealed by Paraph the same way: its own seal shows as valid in a PDF reader.',
            size: 9,
          },
        ]
      : []),
    {
      text: completion ?? `Not completed: the submission is ${record.status}; no final PDF was made.`,
      font: 'bold',
      size: 10,
    },
  ]
  flow.heading('Verification and completion', 13, flow.measure(runs, flow.width) + 20)
  for (const [i, run] of runs.entries()) {
    if (i > 0) flow.gap(i === runs.length - 1 ? 10 : 4)
    flow.paragraph(run)
  }
}
