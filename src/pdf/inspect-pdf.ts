// Validates an uploaded PDF and measures its pages for api-v1 §4.3 (field areas must lie on a
// real page). Parsing happens in a pool of warm child processes running pdf-lib, each bounded by
// a memory limit and a timeout (child-pool.ts): in-process pdf-lib would inflate a Flate bomb
// to 1 GiB, overflow the stack on a cyclic page tree, and load a 40 MB upload into the server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type Outcome as PoolOutcome, PoolsByLimits } from './child-pool.ts'
import type { InspectAnswer, InspectRequest } from './inspector-protocol.ts'
import { pageBox, type Rect } from './page-box.ts'
import { MAX_PAGES } from './page-tree.ts'
import { fileHasPdfMagic, hasPdfMagic } from './pdf-magic.ts'

export { MAX_PAGES }

export interface PdfInfo {
  pageCount: number
  /** Each page as the signer sees it: CropBox within MediaBox, rotated; points, 2 decimals. */
  pages: Array<{ width: number; height: number }>
  version?: string
}

export type InvalidPdfReason =
  | 'not_pdf'
  | 'unreadable'
  | 'encrypted'
  | 'too_many_pages'
  | 'empty_page'
  | 'timeout'

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
  /** Children kept warm; each distinct (memoryLimitBytes, poolSize) has a pool of its own. */
  poolSize?: number
}

const DEFAULT_TIMEOUT_MS = 20_000
// RLIMIT_DATA of a child (memory-limit.ts). Measured: a bundled child reading a 50 MB upload (our
// largest) peaks at ~115 MB RSS (node and pdf-lib ~65 MB, the file, pdf-lib's copy of its streams)
// and needs 160 MiB; run from the sources, tsx alone needs 160 MiB to start. 512 MiB leaves room
// for files with many objects, while a bomb inflating past it fails inside the child.
const DEFAULT_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024
// Two warm readers: a 1-page PDF takes ~1 ms, so two absorb bursts, and a slow or hostile file
// holds only one of them.
const DEFAULT_POOL_SIZE = 2

// A child that read a file this large is replaced: V8 and malloc keep the pages a parse grew
// into (a warm child holds ~65 MB RSS, ~105 MB after a 40 MB file, measured), and idle children
// would hold them until the server stops.
const RECYCLE_AFTER_BYTES = 16 * 1024 * 1024

type Outcome = PoolOutcome<InspectAnswer>

const pools = new PoolsByLimits<Omit<InspectRequest, 'id'>, InspectAnswer>(
  {
    name: 'PDF inspector',
    script: { source: 'inspector-child.ts', bundle: 'pdf-inspector.mjs' },
    recycleAfter: (answer) => answer.bytes > RECYCLE_AFTER_BYTES,
  },
  { size: DEFAULT_POOL_SIZE, memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES },
)

/** Kills the readers, for a graceful shutdown; a later inspection starts new ones. */
export function closePdfInspector(): void {
  pools.close()
}

const unreadable = (cause: string) =>
  new InvalidPdfError('unreadable', `the PDF could not be parsed: ${cause}`)

const notPdf = () => new InvalidPdfError('not_pdf', 'the file is not a PDF: it does not start with %PDF-')

/** The reader's finding as page sizes, or the refusal it amounts to. */
function infoOf(outcome: Outcome, timeoutMs: number): PdfInfo {
  if (outcome.ok) {
    const pages = outcome.pages.map(({ mediaBox, cropBox, rotate }, index) => {
      checkPageArea(index + 1, mediaBox, cropBox)
      const { width, height } = pageBox(mediaBox, cropBox, rotate)
      return { width: round2(width), height: round2(height) }
    })
    return { pageCount: pages.length, pages, ...(outcome.version ? { version: outcome.version } : {}) }
  }
  switch (outcome.reason) {
    case 'timeout':
      throw new InvalidPdfError(
        'timeout',
        `the PDF took longer than ${timeoutMs / 1000} s to read; it may be damaged`,
      )
    case 'crashed':
      throw unreadable('reading it exhausted the memory allowed or crashed the reader')
    // Any encryption is refused, owner-password-only included: pdf-lib cannot stamp it (it
    // throws, or with ignoreEncryption draws blank pages), and decrypting would strip restrictions
    // the author chose. The client can remove the protection knowingly and send the file again.
    case 'encrypted':
      throw new InvalidPdfError(
        'encrypted',
        'the PDF is encrypted (password-protected); remove the protection and send it again',
      )
    case 'too_many_pages': {
      const count = `${outcome.capped ? 'more than ' : ''}${outcome.pageCount}`
      throw new InvalidPdfError(
        'too_many_pages',
        `the PDF has ${count} pages; at most ${MAX_PAGES} are accepted`,
      )
    }
    case 'unreadable':
      throw unreadable(outcome.cause)
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

export async function inspectPdfFile(path: string, options: InspectOptions = {}): Promise<PdfInfo> {
  if (!(await fileHasPdfMagic(path))) throw notPdf()
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // Absolute: the child's working directory is not ours to rely on.
  const outcome = await pools.get(options).run({ path: resolve(path) }, timeoutMs)
  return infoOf(outcome, timeoutMs)
}

/** For inline uploads: the bytes go to a private temp file, which the reader opens itself. */
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
