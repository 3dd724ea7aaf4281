// The audit trail as a readable A4 PDF (issue #11; security-notes "Audit trail minimum"): title and
// legal level, a summary, the documents with their hashes, a section per signer, then every event.
// It is sealed afterwards like the final PDF, so this ends with an ordinary pdf-lib save().
import { PDFDocument } from 'pdf-lib'
import type { AuditEvent, AuditFieldValue, AuditRecord, AuditSubmitter } from './audit-record.ts'
import { type Cell, type Column, Flow, type FlowFonts, MUTED, type Run } from './flow-layout.ts'
import { embedFont } from './fonts.ts'
import { addFooters } from './footer.ts'
import { SAVE_IN_ONE_GO } from './overlay.ts'
import { widthAt } from './text-fit.ts'

export interface AuditLogPdfOptions {
  /** Where Debian's font packages put their files; fonts.ts DEFAULT_FONT_DIR when absent. */
  fontDir?: string
}

const EMPTY = '—'
const label = (text: string): Cell => [{ text, color: MUTED }]
const plain = (text: string | null | undefined): Cell => [{ text: text ?? EMPTY }]
const mono = (text: string, size = 7): Run => ({ text, font: 'mono', size })
// Hashes and ids in DejaVu Sans Mono at 7 pt: 64 hex digits take 270 pt, within the value column.
const HASH_SIZE = 7

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
  const flow = new Flow(doc, fonts)
  writeTitle(flow, record)
  writeDocuments(flow, record)
  writeDocumentFacts(flow, record)
  for (const [i, submitter] of record.submitters.entries()) {
    writeSubmitter(flow, submitter, i, record.submitters.length)
  }
  writeEvents(flow, record, fonts)
  addFooters(doc, fonts.sans, (n, m) => ['Audit trail', record.submission_id, `page ${n} of ${m}`], {
    bottom: 24,
  })
  return { bytes: await doc.save(SAVE_IN_ONE_GO), doc }
}

function keyValues(flow: Flow, rows: Array<[string, Cell]>): void {
  const labelWidth = 120
  const columns: Column[] = [
    { title: '', width: labelWidth },
    { title: '', width: flow.width - labelWidth },
  ]
  flow.table(
    columns,
    rows.map(([name, value]) => [label(name), value]),
    { header: false },
  )
}

function writeTitle(flow: Flow, record: AuditRecord): void {
  flow.heading('Audit trail', 20, 200)
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

/** How each document went into the final PDF, in sentences (issue #21). */
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
  return [
    { text: at },
    { text: `IP ${ip ?? EMPTY}` },
    { text: `User agent: ${userAgent ?? EMPTY}`, size: 7.5 },
  ]
}

function writeSubmitter(flow: Flow, s: AuditSubmitter, index: number, count: number): void {
  flow.heading(`Signer ${index + 1} of ${count}: ${s.name ?? s.email}`, 12)
  const rows: Array<[string, Cell]> = [
    ['Role', plain(s.role)],
    ['E-mail', plain(s.email)],
    ['Name', plain(s.name)],
    ['Submitter', [mono(s.id, 8)]],
    ['Delivery', plain(DELIVERY[s.delivery])],
    [
      'E-mail code (2FA)',
      plain(s.email_2fa_verified_at ? `e-mail code verified at ${s.email_2fa_verified_at}` : 'none entered'),
    ],
    ['Status', plain(s.status)],
    ['Opened', act(s.opened_at, s.opened_ip, s.opened_user_agent)],
  ]
  if (s.status === 'pre_signed')
    rows.push(['Signed', plain(`${s.signed_at ?? EMPTY}, pre-signed by the sender`)])
  else if (s.signed_at) rows.push(['Signed', act(s.signed_at, s.signed_ip, s.signed_user_agent)])
  if (s.declined_at) {
    rows.push(['Declined', act(s.declined_at, s.declined_ip, s.declined_user_agent)])
    rows.push(['Reason', plain(s.decline_reason)])
  }
  rows.push(['Consent', plain(s.consent_text)])
  keyValues(flow, rows)
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

/** Who acted (address and browser) and, for a change of data, what changed. */
function detailsCell(e: AuditEvent): Cell {
  const cell: Cell = []
  if (e.ip || e.user_agent) {
    cell.push({ text: `IP ${e.ip ?? EMPTY}`, size: 7.5 })
    cell.push({ text: e.user_agent ?? EMPTY, size: 6.5, color: MUTED })
  }
  if (e.details) cell.push({ text: e.details, size: 7.5 })
  return cell.length > 0 ? cell : plain(null)
}

function writeEvents(flow: Flow, record: AuditRecord, fonts: FlowFonts): void {
  flow.heading('Events', 13)
  const emails = new Map(record.submitters.map((s) => [s.id, s.email]))
  // Wide enough for a whole timestamp, a whole event id and the longest event type on one line
  // (`submission.partially_signed` broke mid-word otherwise), whatever the metrics.
  const timeWidth = Math.ceil(widthAt(fonts.sans, '0000-00-00T00:00:00.000Z', 7.5)) + 9
  const typeWidths = record.events.map((e) => widthAt(fonts.sans, e.type, 7.5))
  const eventWidth = Math.ceil(Math.max(widthAt(fonts.mono, `evt_${'W'.repeat(24)}`, 6), ...typeWidths)) + 9
  const submitterWidth = 105
  const rows = record.events.map((e): Cell[] => [
    [{ text: e.created_at, size: 7.5 }],
    [
      { text: e.type, size: 7.5 },
      { ...mono(e.id, 6), color: MUTED },
    ],
    e.submitter_id ? [{ text: emails.get(e.submitter_id) ?? e.submitter_id, size: 7.5 }] : plain(null),
    detailsCell(e),
  ])
  flow.table(
    [
      { title: 'Time (UTC)', width: timeWidth },
      { title: 'Event', width: eventWidth },
      { title: 'Signer', width: submitterWidth },
      { title: 'IP and user agent, or change', width: flow.width - timeWidth - eventWidth - submitterWidth },
    ],
    rows,
  )
}
