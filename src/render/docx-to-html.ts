// DOCX → HTML for POST /v1/submissions/from_docx (docs/api.md#docx): strict base64, the zip gate
// (zip-gate.ts, in the server: a bomb is refused in microseconds and never reaches a child), then
// mammoth in a warm child process under an OS memory limit and a timeout (docx-child.ts through
// src/child-pool/child-pool.ts), then a whole HTML document (docx-page.ts) capped in size before Chromium
// sees it. Tags split over Word runs come out as `{{Na<strong>me</strong>;role=A}}`: the tag
// finder reads them through inline elements.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Outcome, PoolsByLimits } from '../child-pool/child-pool.ts'
import { LIMITS } from '../limits.ts'
import { docxHtmlDocument } from './docx-page.ts'
import type { ConvertAnswer, ConvertRequest } from './docx-protocol.ts'
import { RenderError } from './render-error.ts'
import { readZipDirectory } from './zip-gate.ts'

/** pino's shape: mammoth's warnings go to debug, never fail a conversion. */
export interface DebugLogger {
  debug(details: object, message: string): void
}

export interface DocxToHtmlOptions {
  /** The document's `<title>`. */
  title?: string
  /** Wall clock for mammoth, from the moment a child takes the file (default LIMITS.docxConvertMs). */
  timeoutMs?: number
  memoryLimitBytes?: number
  /** Children kept warm; each distinct (memoryLimitBytes, poolSize) has a pool of its own. */
  poolSize?: number
  logger?: DebugLogger
}

const MiB = 1024 * 1024
// RLIMIT_DATA of a child (src/child-pool/memory-limit.ts). A warm child holds ~60 MB (bundled, after a
// three-page conversion, measured). mammoth can need far more: a 600 KB DOCX of 10 MiB of short
// paragraphs took it 7 s and 1.4 GB (measured; docs/security.md#hostile-pdf-and-docx-inputs: 1.2 GB
// for a 242 KB file). Past this limit the child dies and the conversion fails, never the server.
const DEFAULT_MEMORY_LIMIT_BYTES = 1024 * MiB
// Conversions are rare and short (20–40 ms for three pages, warm): two absorb a burst, and a slow
// or hostile file holds only one of them.
const DEFAULT_POOL_SIZE = 2
// A child that wrote this much HTML, or failed, is replaced, so memory a large file grew goes back.
const RECYCLE_AFTER_BYTES = 2 * MiB

const DATA_URL_PREFIX = 'data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,'

const pools = new PoolsByLimits<Omit<ConvertRequest, 'id'>, ConvertAnswer>(
  {
    name: 'DOCX converter',
    // Paths from child-pool.ts: the source beside this file, the bundle beside the server's.
    script: { source: new URL('./docx-child.ts', import.meta.url), bundle: 'docx-converter.mjs' },
    recycleAfter: (answer) => !answer.ok || answer.bytes > RECYCLE_AFTER_BYTES,
  },
  { size: DEFAULT_POOL_SIZE, memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES },
)

/** Kills the converters, for a graceful shutdown; a later conversion starts new ones. */
export function closeDocxConverter(): void {
  pools.close()
}

const invalid = (message: string) => new RenderError('refused_docx', message)

/**
 * Strict base64, as `decodeBase64Pdf` reads PDFs: only the alphabet and its padding (line breaks
 * are tolerated), optionally behind the DOCX data-URL prefix; at most 4 MiB of characters.
 */
export function decodeBase64Docx(data: string): Buffer {
  let body = data.startsWith(DATA_URL_PREFIX) ? data.slice(DATA_URL_PREFIX.length) : data
  if (/\s/.test(body)) body = body.replace(/\s+/g, '')
  if (body.length > LIMITS.docxBase64Chars) {
    throw invalid(`file: ${body.length} characters of base64; at most ${LIMITS.docxBase64Chars} (4 MiB)`)
  }
  if (body.length === 0) throw invalid('file: is empty; send the DOCX as base64')
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0
  const bytes = Buffer.from(body, 'base64')
  // Node skips characters outside the alphabet: a whole decode has exactly 3n − padding bytes.
  // It also reads base64url's - and _, which are not base64 (RFC 4648 §4): refused by name.
  if (body.length % 4 !== 0 || bytes.length !== (body.length / 4) * 3 - padding || /[-_]/.test(body)) {
    throw invalid('file: not valid base64')
  }
  return bytes
}

/**
 * A DOCX (base64 as sent, or bytes) as a whole HTML document. Throws RenderError `refused_docx`
 * for a file refused (base64, zip gate, a DTD in a part, not Word, HTML past LIMITS.docxHtmlBytes) and
 * `docx_failed` when mammoth throws, times out or crashes. Rejects with a plain
 * Error only on a server fault (no converter could start).
 */
export async function docxToHtml(
  file: string | Uint8Array,
  options: DocxToHtmlOptions = {},
): Promise<string> {
  const bytes = typeof file === 'string' ? decodeBase64Docx(file) : Buffer.from(file)
  if (bytes.length > (LIMITS.docxBase64Chars / 4) * 3) {
    throw invalid(
      `file: the DOCX is ${bytes.length} bytes; at most ${(LIMITS.docxBase64Chars / 4) * 3} (3 MiB)`,
    )
  }
  readZipDirectory(bytes)
  const dir = await mkdtemp(join(tmpdir(), 'paraph-docx-'))
  try {
    const [input, output] = [join(dir, 'upload.docx'), join(dir, 'fragment.html')]
    await writeFile(input, bytes, { mode: 0o600 })
    const timeoutMs = options.timeoutMs ?? LIMITS.docxConvertMs
    const answer = await pools
      .get(options)
      .run({ input, output, maxHtmlBytes: LIMITS.docxHtmlBytes }, timeoutMs)
    if (!answer.ok) throw failure(answer, timeoutMs)
    if (answer.messages.length > 0) options.logger?.debug({ messages: answer.messages }, 'mammoth warnings')
    const html = docxHtmlDocument(await readFile(output, 'utf8'), options.title)
    const size = Buffer.byteLength(html)
    if (size > LIMITS.docxHtmlBytes) throw tooLarge(size)
    return html
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const tooLarge = (bytes: number) =>
  invalid(
    `file: the DOCX converts to ${(bytes / MiB).toFixed(1)} MiB of HTML; at most ${LIMITS.docxHtmlBytes / MiB} MiB (make its images smaller)`,
  )

function failure(answer: Exclude<Outcome<ConvertAnswer>, { ok: true }>, timeoutMs: number): RenderError {
  switch (answer.reason) {
    case 'invalid':
      return invalid(answer.cause)
    case 'too_large':
      return tooLarge(answer.bytes)
    case 'failed':
      return new RenderError('docx_failed', `The DOCX could not be converted: ${answer.cause}.`)
    case 'timeout':
      return new RenderError(
        'docx_failed',
        `The DOCX could not be converted within ${timeoutMs / 1000} s; simplify it or send it as PDF.`,
      )
    case 'crashed':
      return new RenderError(
        'docx_failed',
        'The DOCX could not be converted: it exhausted the memory allowed or crashed the converter; simplify it or send it as PDF.',
      )
  }
}
