// Validates an uploaded PDF and measures its pages for docs/api.md#field-areas (field areas must
// lie on a real page). Reading happens in a pool of warm child processes running MuPDF
// (mupdf-open.ts), each bounded by a memory limit and a timeout (child-pool.ts): the file, MuPDF's
// copy of it and whatever a hostile file makes MuPDF build stay out of the server. What MuPDF opens
// is accepted as viewers accept it (repaired, or decrypted with the empty user password); refused
// are files needing a password, certified against any change, too long, or not PDFs at all.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type Outcome as PoolOutcome, PoolsByLimits } from '../../child-pool/child-pool.ts'
import type { FileFacts, InspectAnswer, InspectRequest } from './inspector-protocol.ts'
import type { CertificationLevel } from './original-facts.ts'
import { pageBox, type Rect } from './page-box.ts'
import { MAX_PAGES } from './page-tree.ts'
import { hasPdfMagic, otherFormat, readHead } from './pdf-magic.ts'

export { MAX_PAGES }

export interface PdfInfo extends FileFacts {
  pageCount: number
  /** Each page as the signer sees it: CropBox within MediaBox, rotated; points, 2 decimals. */
  pages: Array<{ width: number; height: number }>
  version: string
  /** Level 1 is refused: an accepted certified document allows form filling and signing. */
  certification?: Exclude<CertificationLevel, 1>
}

export type InvalidPdfReason =
  | 'not_pdf'
  | 'unreadable'
  | 'password'
  | 'certified'
  | 'too_many_pages'
  | 'empty_page'
  | 'timeout'

/** A refusal of the file itself; `message` is one sentence fit to show the client. */
export class InvalidPdfError extends Error {
  override readonly name = 'InvalidPdfError'
  readonly reason: InvalidPdfReason
  constructor(reason: InvalidPdfReason, message: string) {
    super(message)
    this.reason = reason
  }
}

export interface InspectOptions {
  timeoutMs?: number
  memoryLimitBytes?: number
  /** Children kept warm; each distinct (memoryLimitBytes, poolSize) has a pool of its own. */
  poolSize?: number
}

const DEFAULT_TIMEOUT_MS = 20_000
// RLIMIT_DATA of a child (memory-limit.ts). Measured with the bundled child: node and MuPDF's WASM
// take ~85 MB RSS; a 50 MB upload (our largest) peaks at ~220 MB (the file, MuPDF's copy of it),
// ~230 MB when its xref must be rebuilt, which needs more than 256 MiB of limit and passes at 320;
// run from the sources, tsx adds ~25 MB. 512 MiB leaves room for files with many objects, while a
// file that makes MuPDF build more (five million numbers in an array: ~250 MB) fails inside the
// child, MuPDF's allocation refused. A Flate bomb in an object stream is inflated as a stream
// (1.1 GiB: ~96 MB peak RSS, 12 s): the timeout, not the memory limit, ends it.
const DEFAULT_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024
// Two warm readers: a 1-page PDF takes ~1 ms, so two absorb bursts, and a slow or hostile file
// holds only one of them.
const DEFAULT_POOL_SIZE = 2

// A child that read a file this large, or grew this much, is replaced: MuPDF's WASM memory never
// shrinks, nor do V8's pages, and idle children would hold them until the server stops. Measured
// (bundled): ~85 MB RSS warm, ~112 MB after a 5 MB 100-page file, ~180 MB for good after a 40 MB
// one; a child past 160 MiB grew for one file.
const RECYCLE_AFTER_BYTES = 16 * 1024 * 1024
const RECYCLE_AFTER_RSS = 160 * 1024 * 1024

type Outcome = PoolOutcome<InspectAnswer>

const pools = new PoolsByLimits<Omit<InspectRequest, 'id'>, InspectAnswer>(
  {
    name: 'PDF inspector',
    script: { source: new URL('./inspector-child.ts', import.meta.url), bundle: 'pdf-inspector.mjs' },
    recycleAfter: (answer) => answer.bytes > RECYCLE_AFTER_BYTES || answer.rss > RECYCLE_AFTER_RSS,
  },
  { size: DEFAULT_POOL_SIZE, memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES },
)

/** Kills the readers, for a graceful shutdown; a later inspection starts new ones. */
export function closePdfInspector(): void {
  pools.close()
}

const unreadable = (cause: string) =>
  new InvalidPdfError('unreadable', `the PDF could not be parsed: ${cause}`)

const notPdf = (why: string) => new InvalidPdfError('not_pdf', `the file is not a PDF: ${why}`)

/** The reader's finding as page sizes and facts, or the refusal it amounts to. */
function infoOf(outcome: Outcome, timeoutMs: number): PdfInfo {
  if (!outcome.ok) throw refusalOf(outcome, timeoutMs)
  const { pages: rawPages, version, encrypted, repaired, certification, signatures } = outcome
  // ISO 32000-1 §12.8.2.2: level 1 forbids any change, a signature included.
  if (certification === 1) {
    throw new InvalidPdfError(
      'certified',
      'the PDF is certified by its author against any change (DocMDP level 1); signing it would break that certification',
    )
  }
  const pages = rawPages.map(({ mediaBox, cropBox, rotate }, index) => {
    checkPageArea(index + 1, mediaBox, cropBox)
    const { width, height } = pageBox(mediaBox, cropBox, rotate)
    return { width: round2(width), height: round2(height) }
  })
  return {
    pageCount: pages.length,
    pages,
    version,
    encrypted,
    repaired,
    ...(certification && { certification }),
    signatures,
  }
}

function refusalOf(outcome: Exclude<Outcome, { ok: true }>, timeoutMs: number): InvalidPdfError {
  switch (outcome.reason) {
    case 'timeout':
      return new InvalidPdfError(
        'timeout',
        `the PDF took longer than ${timeoutMs / 1000} s to read; it may be damaged`,
      )
    case 'crashed':
      return unreadable('reading it exhausted the memory allowed or crashed the reader')
    // An empty user password is tried by MuPDF itself, as by every viewer: what is left needs a
    // password only its author knows, and the server must not ask for or keep one.
    case 'password':
      return new InvalidPdfError(
        'password',
        'the PDF is protected by a password; remove the password and send it again',
      )
    case 'too_many_pages':
      return new InvalidPdfError(
        'too_many_pages',
        `the PDF has ${outcome.pageCount} pages; at most ${MAX_PAGES} are accepted`,
      )
    case 'unreadable':
      return unreadable(outcome.cause)
  }
}

/**
 * A page with no area cannot be shown, nor hold a field (a fraction of 0 is 0 points). Corners in
 * either order are fine (ISO 32000-1 §7.9.5), so width and height are taken as distances.
 */
function checkPageArea(page: number, mediaBox: Rect, cropBox: Rect | undefined): void {
  for (const [name, box] of [
    ['MediaBox', mediaBox],
    ['CropBox', cropBox],
  ] as const) {
    if (!box) continue
    const [width, height] = [Math.abs(box[2] - box[0]), Math.abs(box[3] - box[1])]
    if (!(width > 0 && height > 0)) {
      throw new InvalidPdfError(
        'empty_page',
        `page ${page} has a ${name} of ${round2(width)} × ${round2(height)} points; every page needs a width and a height`,
      )
    }
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100

/**
 * The rule for a file's first 1024 bytes: another format's signature (ZIP, PNG, HTML…) is refused
 * at once, whatever MuPDF could dig out of it. `%PDF-` in the window is a PDF to read, as for
 * Acrobat and poppler. Without it, the file is a PDF only if MuPDF finds pages in it (a missing
 * or late header, which qpdf and poppler repair too); if it finds none, the client is told the file
 * is not a PDF rather than that a PDF is damaged.
 */
export async function inspectPdfFile(path: string, options: InspectOptions = {}): Promise<PdfInfo> {
  const head = await readHead(path)
  const other = otherFormat(head)
  if (other) throw notPdf(`it is ${other}`)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // Absolute: the child's working directory is not ours to rely on.
  const outcome = await pools.get(options).run({ path: resolve(path) }, timeoutMs)
  if (!hasPdfMagic(head) && !outcome.ok && outcome.reason === 'unreadable') {
    throw notPdf('it has no %PDF- header and no PDF pages could be read from it')
  }
  return infoOf(outcome, timeoutMs)
}

/** For inline uploads: the bytes go to a private temp file, which the reader opens itself. */
export async function inspectPdfBytes(bytes: Uint8Array, options: InspectOptions = {}): Promise<PdfInfo> {
  const other = otherFormat(bytes)
  if (other) throw notPdf(`it is ${other}`)
  const dir = await mkdtemp(join(tmpdir(), 'paraph-pdf-'))
  try {
    const path = join(dir, 'upload.pdf')
    await writeFile(path, bytes, { mode: 0o600 })
    return await inspectPdfFile(path, options)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
