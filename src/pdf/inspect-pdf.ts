// Validates an uploaded PDF and measures its pages for api-v1 §4.3 (field areas must lie on a
// real page). Parsing happens in poppler's pdfinfo, out of process and bounded (run-limited.ts):
// in-process pdf-lib would inflate a Flate bomb to 1 GiB, overflow the stack on a cyclic page
// tree, and load a 40 MB upload into the server's memory.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pageBox } from './page-box.ts'
import { fileHasPdfMagic, hasPdfMagic } from './pdf-magic.ts'
import { type PdfinfoReport, parsePdfinfoOutput } from './pdfinfo-output.ts'
import { type LimitedRun, runLimited } from './run-limited.ts'

export interface PdfInfo {
  pageCount: number
  /** Each page as the signer sees it: CropBox within MediaBox, rotated; points, 2 decimals. */
  pages: Array<{ width: number; height: number }>
  version?: string
}

export type InvalidPdfReason = 'not_pdf' | 'unreadable' | 'encrypted' | 'too_many_pages' | 'timeout'

/** A refusal of the file itself; `message` is one sentence fit to show the client. */
export class InvalidPdfError extends Error {
  override readonly name = 'InvalidPdfError'
  constructor(
    readonly reason: InvalidPdfReason,
    message: string,
  ) {
    super(message)
  }
}

export interface InspectOptions {
  timeoutMs?: number
  memoryLimitBytes?: number
}

export const MAX_PAGES = 2000
const DEFAULT_TIMEOUT_MS = 20_000
// pdfinfo needs ~20 MiB of address space to start and ~10 MiB resident on a 40 MB file; the rest
// is room for large xref tables, while a bomb inflating past it fails inside the child.
const DEFAULT_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024
// 2000 pages of -box lines print ~750 KB; the rest is room for long document metadata.
const MAX_STDOUT_BYTES = 4 * 1024 * 1024
// pdfinfo's own exit codes for a file it could not read; any other means it could not run at all.
const PDFINFO_FILE_ERRORS = new Set([1, 2, 3, 99])

const unreadable = (cause: string) =>
  new InvalidPdfError('unreadable', `the PDF could not be parsed: ${cause}`)

const notPdf = () => new InvalidPdfError('not_pdf', 'the file is not a PDF: it does not start with %PDF-')

/** The last error poppler printed, without its prefix, quoted names or the path: safe to show. */
function shortCause(stderr: string, path: string): string {
  const line = stderr
    .split('\n')
    .filter((text) => /error/i.test(text))
    .at(-1)
  if (!line) return 'the PDF reader gave up on it'
  const cause = line
    .replaceAll(path, 'the file')
    .replace(/^[^:]*error[^:]*:\s*/i, '')
    .replace(/'[^']*'/g, '')
    .trim()
    .slice(0, 120)
  return cause ? cause.charAt(0).toLowerCase() + cause.slice(1) : 'the PDF reader gave up on it'
}

// Any encryption is refused, owner-password-only included: pdf-lib cannot stamp it (it throws, or
// with ignoreEncryption draws blank pages), and decrypting would strip restrictions the author
// chose. The client can remove the protection knowingly and send the file again.
const encrypted = () =>
  new InvalidPdfError(
    'encrypted',
    'the PDF is encrypted (password-protected); remove the protection and send it again',
  )

/** What pdfinfo reported, or the refusal its run amounts to. */
function reportOf(run: LimitedRun, path: string, timeoutMs: number): PdfinfoReport {
  if (run.timedOut) {
    throw new InvalidPdfError(
      'timeout',
      `the PDF took longer than ${timeoutMs / 1000} s to read; it may be damaged`,
    )
  }
  if (/Incorrect password/i.test(run.stderr)) throw encrypted()
  if (run.stdoutTooLarge) throw unreadable('its metadata is too large')
  if (run.signal) throw unreadable('reading it exhausted the memory allowed or crashed the reader')
  if (run.code !== 0 && !PDFINFO_FILE_ERRORS.has(run.code ?? -1)) {
    // A server problem (pdfinfo missing, or unable to start under the limit), not the client's.
    throw new Error(`pdfinfo could not run (exit ${run.code}): ${shortCause(run.stderr, path)}`)
  }
  const report = run.code === 0 ? parsePdfinfoOutput(run.stdout) : undefined
  if (!report) throw unreadable(shortCause(run.stderr, path))
  if (report.encrypted) throw encrypted()
  if (report.pageCount > MAX_PAGES) {
    const message = `the PDF has ${report.pageCount} pages; at most ${MAX_PAGES} are accepted`
    throw new InvalidPdfError('too_many_pages', message)
  }
  if (report.pageCount === 0) throw unreadable('it has no pages')
  return report
}

/** Every page must have been read: poppler skips a page it cannot reach (a cycle) but counts it. */
function pagesOf(report: PdfinfoReport, stderr: string): PdfInfo['pages'] {
  const pages: PdfInfo['pages'] = []
  for (let number = 1; number <= report.pageCount; number++) {
    const page = report.pages.get(number)
    if (!page?.mediaBox) {
      if (/Loop in Pages tree/i.test(stderr)) throw unreadable('its page tree loops back on itself')
      throw unreadable(`page ${number} could not be read`)
    }
    const { width, height } = pageBox(page.mediaBox, page.cropBox, page.rotate)
    pages.push({ width: round2(width), height: round2(height) })
  }
  return pages
}

const round2 = (value: number) => Math.round(value * 100) / 100

export async function inspectPdfFile(path: string, options: InspectOptions = {}): Promise<PdfInfo> {
  if (!(await fileHasPdfMagic(path))) throw notPdf()
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // Absolute, so a path can never begin with '-' and be read as an option.
  const absolute = resolve(path)
  const run = await runLimited('pdfinfo', ['-box', '-f', '1', '-l', String(MAX_PAGES), absolute], {
    timeoutMs,
    memoryBytes: options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES,
    maxStdoutBytes: MAX_STDOUT_BYTES,
  })
  const report = reportOf(run, absolute, timeoutMs)
  const pages = pagesOf(report, run.stderr)
  return { pageCount: report.pageCount, pages, ...(report.version ? { version: report.version } : {}) }
}

/** For inline uploads: the bytes go to a private temp file, so pdfinfo reads them out of process. */
export async function inspectPdfBytes(bytes: Uint8Array, options: InspectOptions = {}): Promise<PdfInfo> {
  if (!hasPdfMagic(bytes)) throw notPdf()
  const dir = await mkdtemp(join(tmpdir(), 'paraph-pdf-'))
  try {
    const path = join(dir, 'upload.pdf')
    await writeFile(path, bytes, { mode: 0o600 })
    return await inspectPdfFile(path, options)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
