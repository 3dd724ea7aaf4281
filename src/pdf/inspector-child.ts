// A long-lived PDF reader, started by child-pool.ts under an OS memory limit: it reads one
// JSON request per stdin line, parses the file with pdf-lib and writes one small JSON answer per
// line. Parsing here rather than in the server contains what untrusted files do to pdf-lib: a
// Flate bomb in an object stream, a 40 MB upload in the heap, a stack overflow. It imports only
// pdf-lib and node built-ins, since bin/paraph.mjs bundles it on its own.
import { readFile } from 'node:fs/promises'
import { PDFDocument } from 'pdf-lib'
import { serveRequests } from './child-loop.ts'
import type { Finding, InspectAnswer, InspectRequest } from './inspector-protocol.ts'
import { PageTreeError, readPageTree } from './page-tree.ts'

async function inspect(bytes: Uint8Array): Promise<Finding> {
  const doc = await PDFDocument.load(bytes, {
    // We refuse encrypted files ourselves, with our own message.
    ignoreEncryption: true,
    updateMetadata: false,
    // Never yield to the event loop between objects: this process has nothing else to do.
    parseSpeed: Number.POSITIVE_INFINITY,
    // Damaged objects are skipped, as viewers do: only the page tree must be sound.
    throwOnInvalidObject: false,
  })
  if (doc.isEncrypted) return { ok: false, reason: 'encrypted' }
  const tree = readPageTree(doc.context, doc.catalog)
  if (!tree.ok) return { ok: false, reason: 'too_many_pages', pageCount: tree.pageCount, capped: tree.capped }
  const version = /^%PDF-(\d+\.\d+)/.exec(doc.context.header.toString())?.[1]
  return { ok: true, pages: tree.pages, ...(version && { version }) }
}

/** One line of at most 120 characters, without the path or a stack: it is shown to the client. */
function causeOf(error: unknown): string {
  if (error instanceof PageTreeError) return error.message
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return 'its objects are nested too deeply'
  if (error instanceof RangeError && /allocation failed/i.test(error.message)) {
    return 'reading it exhausted the memory allowed'
  }
  // System errors (ENOENT…) quote the path: say only which one it was.
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string') return `the file could not be read (${code})`
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim().slice(0, 120)
  return line ? line.charAt(0).toLowerCase() + line.slice(1) : 'the PDF reader gave up on it'
}

serveRequests<InspectRequest>(async ({ id, path }): Promise<InspectAnswer> => {
  let bytes = 0
  let finding: Finding
  try {
    const file = await readFile(path)
    bytes = file.length
    finding = await inspect(file)
  } catch (error) {
    finding = { ok: false, reason: 'unreadable', cause: causeOf(error) }
  }
  return { id, bytes, ...finding }
})
