// A long-lived DOCX converter, started by src/child-pool/child-pool.ts under an OS memory limit: one JSON
// request per stdin line, one small JSON answer per line. mammoth runs here, not in the server,
// because a DOCX that passed the zip gate can still cost it seconds and a gigabyte
// (docs/security.md#hostile-pdf-and-docx-inputs). It first inflates every entry within its declared
// size (zip-gate.ts), then hands mammoth a stored copy (zip-store.ts): JSZip inside mammoth, which
// would inflate a lying entry without limit, inflates nothing. Imports only mammoth, node
// built-ins and small leaf modules, since bin/paraph.mjs bundles it on its own.
import { readFile, writeFile } from 'node:fs/promises'
import mammoth from 'mammoth'
import { serveRequests } from '../child-pool/child-loop.ts'
import { refuseDtdDeclarations } from './docx-dtd.ts'
import { markImageSizes, readImageMark } from './docx-image-sizes.ts'
import { tidyFragment } from './docx-page.ts'
import type { Conversion, ConvertAnswer, ConvertRequest } from './docx-protocol.ts'
import { refuseTagsInUnreadParts } from './docx-unread-parts.ts'
import { RenderError } from './render-error.ts'
import { inflateZipEntries, readZipDirectory } from './zip-gate.ts'
import { storedZip } from './zip-store.ts'

// A page break becomes an element the stylesheet breaks after (docx-page.ts); without this line
// mammoth drops page breaks and the tags of "page 3" would land on page 1.
const STYLE_MAP = ["br[type='page'] => hr.page-break"]

async function convert({ input, output, maxHtmlBytes }: ConvertRequest): Promise<Conversion> {
  const upload = await readFile(input)
  const files = inflateZipEntries(upload, readZipDirectory(upload))
  // A DTD is bad input (422), refused before mammoth's XML parser sees it.
  refuseDtdDeclarations(files)
  refuseTagsInUnreadParts(files)
  const document = files.get('word/document.xml')!
  // Word writes UTF-8; a document in another encoding keeps its images' pixel sizes.
  if (isUtf8Xml(document)) {
    files.set('word/document.xml', Buffer.from(markImageSizes(document.toString('utf8'))))
  }
  const result = await mammoth.convertToHtml(
    // Stored, already checked: JSZip inflates nothing.
    { buffer: storedZip(files) },
    {
      styleMap: STYLE_MAP,
      convertImage,
      // Explicit, though 1.13's default: a linked image must never be read from this machine's disk.
      externalFileAccess: false,
      // A DOCX may carry its own style map (entry mammoth/style-map), read by default: one line,
      // `p => script`, and every paragraph became a <script> (measured). Only ours applies.
      includeEmbeddedStyleMap: false,
    },
  )
  const html = tidyFragment(result.value)
  const bytes = Buffer.byteLength(html)
  if (bytes > maxHtmlBytes) return { ok: false, reason: 'too_large', bytes }
  await writeFile(output, html, { mode: 0o600 })
  const messages = result.messages.slice(0, 50).map(({ type, message }) => ({ type, message: line(message) }))
  return { ok: true, bytes, messages }
}

function isUtf8Xml(bytes: Buffer): boolean {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return false
  const declared = /encoding=["']([^"']+)["']/.exec(bytes.subarray(0, 100).toString('latin1'))?.[1]
  return !declared || /^utf-?8$/i.test(declared)
}

/** mammoth's data: URI image, with the size Word gave it (docx-image-sizes.ts). */
const convertImage = mammoth.images.imgElement(async (image) => {
  const { alt, width, height } = readImageMark((image as { altText?: string }).altText)
  const src = `data:${image.contentType};base64,${await image.readAsBase64String()}`
  // `alt` always: mammoth would otherwise copy the marked text.
  return { src, alt, ...(width && height ? { width: String(width), height: String(height) } : {}) }
})

const line = (text: string) => text.split('\n')[0]!.trim().slice(0, 200)

/** mammoth's error as a refusal of the file, or as a failure to convert it, in one line. */
function failureOf(error: unknown): Conversion {
  if (error instanceof RenderError) return { ok: false, reason: 'invalid', cause: error.message }
  const message = error instanceof Error ? error.message : String(error)
  if (/could not find main document part/i.test(message)) {
    return {
      ok: false,
      reason: 'invalid',
      cause: 'file: not a Word document (DOCX): it has no main document part',
    }
  }
  if (error instanceof RangeError && /call stack/i.test(message)) {
    return { ok: false, reason: 'failed', cause: 'its XML is nested too deeply' }
  }
  if (/xmldom|parse error|unclosed|not well-formed/i.test(message)) {
    return {
      ok: false,
      reason: 'failed',
      cause: 'its XML is malformed (word/document.xml or a part it uses)',
    }
  }
  // System errors (ENOENT…) quote the temporary path: say only which one it was.
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string')
    return { ok: false, reason: 'failed', cause: `the file could not be read (${code})` }
  const cause = line(message).slice(0, 120)
  return { ok: false, reason: 'failed', cause: cause || 'mammoth gave up on it' }
}

serveRequests<ConvertRequest>(async (request): Promise<ConvertAnswer> => {
  let conversion: Conversion
  try {
    conversion = await convert(request)
  } catch (error) {
    conversion = failureOf(error)
  }
  return { id: request.id, ...conversion }
})
