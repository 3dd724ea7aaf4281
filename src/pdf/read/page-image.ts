// One page of a stored PDF as a JPEG, for the signing page: poppler's pdftoppm renders the
// crop box as a viewer shows it (rotation applied) at a given pixel width. JPEG at quality 90, not
// PNG: for a page of text at 1600 px pdftoppm takes 20 ms to write the JPEG and 400 ms the PNG, for
// files of the same size, and text stays crisp (its luma is kept at full resolution). The PDF was accepted at
// intake but is still untrusted, so pdftoppm runs under a memory limit and a wall-clock timeout, at
// most two at once (two cores), and a failure is one clear error, never a hang.
import { spawn } from 'node:child_process'
import { withMemoryLimit } from '../../child-pool/memory-limit.ts'

const MiB = 1024 * 1024
const MEMORY_LIMIT_BYTES = 512 * MiB
const TIMEOUT_MS = 20_000
const MAX_IMAGE_BYTES = 32 * MiB
const CONCURRENCY = 2

export class PageImageError extends Error {
  override readonly name = 'PageImageError'
}

let running = 0
const queue: Array<() => void> = []

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => queue.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    queue.shift()?.()
  }
}

/** JPEG bytes of page `page` (1-indexed) of `pdf`, `width` pixels wide, height to scale. */
export function renderPageImage(pdf: Uint8Array, page: number, width: number): Promise<Buffer> {
  return slot(() => runPdftoppm(pdf, page, width))
}

function runPdftoppm(pdf: Uint8Array, page: number, width: number): Promise<Buffer> {
  const args = [
    '-jpeg',
    '-jpegopt',
    'quality=90',
    '-cropbox',
    '-f',
    String(page),
    '-l',
    String(page),
    '-scale-to-x',
    String(width),
  ]
  const [command, argv] = withMemoryLimit('pdftoppm', [...args, '-scale-to-y', '-1', '-'], MEMORY_LIMIT_BYTES)
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    let size = 0
    let stderr = ''
    let failure: PageImageError | undefined
    const fail = (message: string) => {
      failure ??= new PageImageError(message)
      child.kill('SIGKILL')
    }
    const timer = setTimeout(
      () => fail(`rendering page ${page} took longer than ${TIMEOUT_MS / 1000} s`),
      TIMEOUT_MS,
    )
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_IMAGE_BYTES) fail(`page ${page} renders to more than ${MAX_IMAGE_BYTES / MiB} MiB`)
      else chunks.push(chunk)
    })
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-2000)
    })
    // A child that dies early closes its stdin: the write error is the exit's to report.
    child.stdin.on('error', () => {})
    child.stdin.end(pdf)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(
        new PageImageError(
          `pdftoppm could not start (${(error as NodeJS.ErrnoException).code}): install poppler-utils`,
        ),
      )
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (failure) return reject(failure)
      if (code !== 0 || size === 0) {
        const reason = stderr.split('\n').find((line) => line.trim()) ?? `exit ${code ?? signal}`
        return reject(new PageImageError(`page ${page} could not be rendered: ${reason.slice(0, 200)}`))
      }
      resolve(Buffer.concat(chunks))
    })
  })
}
