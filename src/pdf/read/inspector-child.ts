// A long-lived PDF reader, started by child-pool.ts under an OS memory limit: it reads one
// JSON request per stdin line, opens the file with MuPDF (mupdf-open.ts: repaired if damaged,
// decrypted if its user password is empty) and writes one small JSON answer per line. Reading here
// rather than in the server contains what untrusted files do: MuPDF's WASM heap grows with the
// file and what it builds from it, a Flate bomb in an object stream costs seconds of inflating.
// It imports only mupdf and node built-ins, since bin/paraph.mjs bundles it on its own.
import { readFile } from 'node:fs/promises'
import { serveRequests } from '../../child-pool/child-loop.ts'
import type { Finding, InspectAnswer, InspectRequest } from './inspector-protocol.ts'
import { openPdf, PdfPasswordError } from './mupdf-open.ts'
import { quietMupdf } from './mupdf-quiet.ts'
import { certificationLevel, earlierSignatures } from './original-facts.ts'
import { PageTreeError, readPageTree } from './page-tree.ts'

function inspect(bytes: Uint8Array): Finding {
  const { doc, encrypted, repaired } = openPdf(bytes)
  try {
    const tree = readPageTree(doc)
    if (!tree.ok) return { ok: false, reason: 'too_many_pages', pageCount: tree.pageCount }
    const certification = certificationLevel(doc)
    return {
      ok: true,
      pages: tree.pages,
      // 17 → "1.7": as MuPDF reads it, the catalog's /Version if any (§7.7.2), else the header's.
      version: (doc.getVersion() / 10).toFixed(1),
      encrypted,
      repaired,
      ...(certification && { certification }),
      signatures: earlierSignatures(doc).length,
    }
  } finally {
    // Frees the file's copy and MuPDF's objects in the WASM heap now, for the next request.
    doc.destroy()
  }
}

// MuPDF's allocator reports exhaustion as "malloc (16 bytes) failed" or "realloc (…) failed".
const OUT_OF_MEMORY = /\b(m|re|c)alloc \(\d+ bytes\) failed|out of memory|allocation failed/i

/** One line of at most 120 characters, without the path or a stack: it is shown to the client. */
function causeOf(error: unknown): string {
  if (error instanceof PageTreeError) return error.message
  const message = error instanceof Error ? error.message : String(error)
  if (OUT_OF_MEMORY.test(message)) return 'reading it exhausted the memory allowed'
  if (error instanceof RangeError && /call stack/i.test(message)) return 'its objects are nested too deeply'
  // System errors (ENOENT…) quote the path: say only which one it was.
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string') return `the file could not be read (${code})`
  const line = message.split('\n')[0]!.trim().slice(0, 120)
  return line ? line.charAt(0).toLowerCase() + line.slice(1) : 'the PDF reader gave up on it'
}

quietMupdf()
serveRequests<InspectRequest>(async ({ id, path }): Promise<InspectAnswer> => {
  let bytes = 0
  let finding: Finding
  try {
    const file = await readFile(path)
    bytes = file.length
    finding = inspect(file)
  } catch (error) {
    finding =
      error instanceof PdfPasswordError
        ? { ok: false, reason: 'password' }
        : { ok: false, reason: 'unreadable', cause: causeOf(error) }
  }
  return { id, bytes, rss: process.memoryUsage.rss(), ...finding }
})
