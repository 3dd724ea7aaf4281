// The cheap first look at an upload, before any parser runs: its first 1024 bytes say whether it
// carries a PDF header, or is plainly another kind of file.
import { open } from 'node:fs/promises'

// "Acrobat viewers require only that the header appear somewhere within the first 1024 bytes of
// the file" (PDF Reference 1.7, Appendix H); poppler searches the same window. Some mailers and
// scanners prepend a few bytes.
export const MAGIC_WINDOW = 1024
const MAGIC = Buffer.from('%PDF-')

/** True when `%PDF-` lies wholly within the first 1024 bytes. */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  return head(bytes).includes(MAGIC)
}

/** Signatures at byte 0 of the files people send by mistake, named for the client. */
const OTHER_FORMATS: Array<[signature: string, name: string]> = [
  ['PK\x03\x04', 'a ZIP archive (a DOCX, XLSX or ODT document is one)'],
  ['PK\x05\x06', 'a ZIP archive'],
  ['\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1', 'an older Office document (DOC, XLS or PPT)'],
  ['{\\rtf', 'an RTF document'],
  ['\x89PNG\r\n\x1a\n', 'a PNG image'],
  ['\xff\xd8\xff', 'a JPEG image'],
  ['GIF87a', 'a GIF image'],
  ['GIF89a', 'a GIF image'],
  ['II*\x00', 'a TIFF image'],
  ['MM\x00*', 'a TIFF image'],
  ['%!PS', 'a PostScript file'],
  ['\x1f\x8b', 'a gzip archive'],
]
// Markup, after an optional UTF-8 byte order mark and blank space: HTML, XML, SVG.
const MARKUP = /^(\xef\xbb\xbf)?\s*</

/**
 * The kind of file the first bytes plainly show, when it is not a PDF: such a file is refused
 * whatever else it holds (a ZIP can store a PDF that MuPDF's repair would dig out), so a client
 * who sent the wrong file is told which one it was. Undefined for anything else.
 */
export function otherFormat(bytes: Uint8Array): string | undefined {
  const text = head(bytes).toString('latin1')
  const found = OTHER_FORMATS.find(([signature]) => text.startsWith(signature))
  if (found) return found[1]
  if (text.slice(8, 12) === 'WEBP' && text.startsWith('RIFF')) return 'a WebP image'
  return MARKUP.test(text) ? 'an HTML or XML document' : undefined
}

/** The view's first 1024 bytes, never the rest of a shared buffer. */
function head(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MAGIC_WINDOW))
}

/** The first 1024 bytes of a file, so a 50 MB download is never loaded to be looked at. */
export async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r')
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(MAGIC_WINDOW), 0, MAGIC_WINDOW, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await file.close()
  }
}
