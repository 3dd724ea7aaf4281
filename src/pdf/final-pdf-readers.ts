// Issue #21 item 3: a final PDF that qpdf or poppler cannot read is never marked completed. Beside
// MuPDF's own reopening (final-pdf.ts checkFinalPdf), the finalizer asks both readers for the page
// count of the file it wrote: `qpdf --show-npages` and poppler's `pdfinfo` parse the cross-reference
// sections and the page tree, without decoding every stream (under 10 ms for 100 pages, where
// `qpdf --check` takes 200 ms). Both are installed by scripts/install.sh (poppler already renders
// the signing page's images).
import { execFile } from 'node:child_process'
import { FinalPdfError } from './final-pdf-error.ts'

const TIMEOUT_MS = 20_000

interface Ran {
  code: number | null
  stdout: string
  /** The tool could not be started (ENOENT: not installed). */
  missing: boolean
}

function run(command: string, args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
      resolve({ code, stdout, missing: error?.code === 'ENOENT' })
    })
  })
}

const failed = (detail: string) =>
  new FinalPdfError(
    'the final PDF failed its own check (a PDF reader could not read it); it was not kept',
    detail,
  )

/** Throws FinalPdfError unless qpdf and poppler both read `pageCount` pages in the file at `path`. */
export async function checkWithReaders(path: string, pageCount: number): Promise<void> {
  const [qpdf, poppler] = await Promise.all([run('qpdf', ['--show-npages', path]), run('pdfinfo', [path])])
  for (const [name, ran, pkg] of [
    ['qpdf', qpdf, 'qpdf'],
    ['pdfinfo', poppler, 'poppler-utils'],
  ] as const) {
    if (ran.missing) throw new Error(`${name} is missing: install ${pkg} (scripts/install.sh)`)
  }
  // qpdf exits 3 when it read the file with warnings: an original's own oddities, kept byte for byte.
  const qpdfPages = qpdf.code === 0 || qpdf.code === 3 ? Number(qpdf.stdout.trim()) : Number.NaN
  if (qpdfPages !== pageCount)
    throw failed(`qpdf exited ${qpdf.code} and read ${qpdf.stdout.trim() || 'no'} pages`)
  const popplerPages = poppler.code === 0 ? Number(/^Pages:\s+(\d+)/m.exec(poppler.stdout)?.[1]) : Number.NaN
  if (popplerPages !== pageCount)
    throw failed(`pdfinfo exited ${poppler.code} and read ${popplerPages} pages`)
}
