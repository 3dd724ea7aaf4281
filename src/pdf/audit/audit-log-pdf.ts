// The audit trail as a readable A4 PDF that reads like a certificate of completion
// (docs/security.md#audit-trail): title and legal level, a summary, the
// documents with their hashes, each signer as a block (details, how reached, acts with time and
// address, the signature and initials images they drew with their hashes, the consent in the
// language they saw, their values), the timeline in sentences with the event codes secondary, then
// how to verify the final PDF and, last, the completion. It is sealed afterwards like the final PDF,
// so this ends with an ordinary pdf-lib save(). A signer's block is drawn by audit-signer-block.ts,
// with the cells of audit-cells.ts.
import { createHash } from 'node:crypto'
import { PDFDocument } from 'pdf-lib'
import { addFooters } from '../final/footer.ts'
import { compressContentNatively, SAVE_IN_ONE_GO } from '../final/overlay.ts'
import { type EmbeddedImage, embedPngNatively } from '../final/png-image.ts'
import { embedFont } from '../text/fonts.ts'
import { widthAt } from '../text/text-fit.ts'
import { HASH_SIZE, keyValues, mono, muted, plain } from './audit-cells.ts'
import type { AuditEvent, AuditRecord } from './audit-record.ts'
import { completionSentence, eventSentence, verificationSentence } from './audit-sentences.ts'
import { imageValues, type Pictures, writeSubmitter } from './audit-signer-block.ts'
import { type Cell, Flow, type FlowFonts, MUTED, type Run } from './flow-layout.ts'

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
