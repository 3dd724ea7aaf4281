// A final PDF that qpdf or poppler cannot read is never marked completed. Beside
// MuPDF's own reopening (final-pdf.ts checkFinalPdf), the finalizer asks both readers for the page
// count of the file it wrote: `qpdf --show-npages` and poppler's `pdfinfo` parse the cross-reference
// sections and the page tree, without decoding every stream (under 10 ms for 100 pages, where
// `qpdf --check` takes 200 ms). Both are installed by scripts/install.sh (poppler already renders
// the signing page's images).
//
// The readers are started by a small shell process that the finalizer child starts once, while it
// is itself small (startReaders): starting a process costs in proportion to the memory of the one
// that starts it (fork copies its page tables), and a finalizer child holds hundreds of megabytes
// of MuPDF and V8 heap — each of the two readers took 25-30 ms to start from it, against 3 ms from
// the shell. The shell reads one path per line and answers both tools' exit codes and output.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { FinalPdfError } from './final-pdf-error.ts'

/** A check not answered by then kills the shell and the reader it runs (a hang, not a slow file). */
const TIMEOUT_MS = 20_000

interface Ran {
  code: number | null
  stdout: string
  /** The tool could not be started (not installed: the shell's 127). */
  missing: boolean
}

/** What the shell prints for one path: each tool's exit code, then its output, then the end mark. */
const script = (end: string) => `
while IFS= read -r path; do
  out=$(qpdf --show-npages "$path" 2>/dev/null); code=$?
  printf 'qpdf %s\\n%s\\n' "$code" "$out"
  out=$(pdfinfo "$path" 2>/dev/null); code=$?
  printf 'pdfinfo %s\\n%s\\n%s\\n' "$code" "$out" "${end}"
done
`

interface Waiting {
  resolve: (answer: { qpdf: Ran; poppler: Ran }) => void
  reject: (error: Error) => void
}

/** One shell answering paths in order; a lost shell fails what waits and is replaced on next use. */
class ReaderShell {
  private readonly end = `--end-${randomBytes(12).toString('hex')}--`
  private readonly process: ChildProcessWithoutNullStreams
  private readonly waiting: Waiting[] = []
  private buffer = ''
  lost = false

  constructor() {
    // Its own process group, so a timeout kills the reader it runs with it.
    this.process = spawn('sh', ['-c', script(this.end)], { stdio: 'pipe', detached: true })
    // Idle, the shell keeps no process alive; a check in flight does (see hold).
    this.hold(false)
    this.process.stdin.on('error', () => {})
    this.process.stderr.resume()
    ;(this.process.stderr as unknown as { unref?: () => void }).unref?.()
    this.process.stdout.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk))
    this.process.on('error', (error) =>
      this.fail(new Error(`the reader shell could not run: ${error.message}`)),
    )
    this.process.on('close', (code, signal) =>
      this.fail(new Error(`the reader shell exited (${code ?? signal})`)),
    )
  }

  check(path: string, timeoutMs = TIMEOUT_MS): Promise<{ qpdf: Ran; poppler: Ran }> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) this.hold(true)
      const timer = setTimeout(() => {
        this.fail(new ReaderTimeout(`qpdf or pdfinfo did not answer within ${timeoutMs} ms`))
        this.kill()
      }, timeoutMs)
      this.waiting.push({
        resolve: (answer) => {
          clearTimeout(timer)
          resolve(answer)
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      })
      this.process.stdin.write(`${path}\n`)
    })
  }

  private kill(): void {
    try {
      if (this.process.pid !== undefined) process.kill(-this.process.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }

  private read(chunk: string): void {
    this.buffer += chunk
    const mark = `\n${this.end}\n`
    for (let at = this.buffer.indexOf(mark); at >= 0; at = this.buffer.indexOf(mark)) {
      const answer = this.buffer.slice(0, at + 1)
      this.buffer = this.buffer.slice(at + mark.length)
      this.waiting.shift()?.resolve(parseAnswer(answer))
      if (this.waiting.length === 0) this.hold(false)
    }
  }

  private hold(held: boolean): void {
    for (const handle of [this.process, this.process.stdout, this.process.stdin] as const) {
      const refs = handle as unknown as { ref?: () => void; unref?: () => void }
      if (held) refs.ref?.()
      else refs.unref?.()
    }
  }

  private fail(error: Error): void {
    this.lost = true
    for (const waiting of this.waiting.splice(0)) waiting.reject(error)
  }
}

/** A reader hung on the file: the file's fault, unlike a shell that could not run (retried). */
class ReaderTimeout extends Error {}

/** "qpdf CODE\n<output>\npdfinfo CODE\n<output>\n" as the two tools' results. */
function parseAnswer(answer: string): { qpdf: Ran; poppler: Ran } {
  // qpdf --show-npages prints a number at most; pdfinfo's output holds the document's own strings.
  const at = answer.indexOf('\npdfinfo ')
  const ran = (text: string, tool: string): Ran => {
    const newline = text.indexOf('\n')
    const code = Number(text.slice(tool.length + 1, newline))
    return { code, stdout: text.slice(newline + 1), missing: code === 127 }
  }
  return { qpdf: ran(answer.slice(0, at + 1), 'qpdf'), poppler: ran(answer.slice(at + 1), 'pdfinfo') }
}

let shell: ReaderShell | undefined

function readerShell(): ReaderShell {
  if (!shell || shell.lost) shell = new ReaderShell()
  return shell
}

/** Starts the readers' shell now, while the calling process is small (see the top of this file). */
export function startReaders(): void {
  readerShell()
}

const failed = (detail: string) =>
  new FinalPdfError(
    'the final PDF failed its own check (a PDF reader could not read it); it was not kept',
    detail,
  )

/** Throws FinalPdfError unless qpdf and poppler both read `pageCount` pages in the file at `path`. */
export async function checkWithReaders(
  path: string,
  pageCount: number,
  timeoutMs = TIMEOUT_MS,
): Promise<void> {
  if (/[\n\r]/.test(path)) throw new Error(`a final PDF path holds a line break: ${JSON.stringify(path)}`)
  let answer: Awaited<ReturnType<ReaderShell['check']>>
  try {
    answer = await readerShell().check(path, timeoutMs)
  } catch (error) {
    throw error instanceof ReaderTimeout ? failed(error.message) : error
  }
  const { qpdf, poppler } = answer
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
  // The last "Pages:" line: the title and other strings before it are the document's own.
  const counted = [...poppler.stdout.matchAll(/^Pages:\s+(\d+)$/gm)].at(-1)?.[1]
  const popplerPages = poppler.code === 0 ? Number(counted) : Number.NaN
  if (popplerPages !== pageCount)
    throw failed(`pdfinfo exited ${poppler.code} and read ${popplerPages} pages`)
}
