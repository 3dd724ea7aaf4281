// The cheap first check on an upload, before any parser runs: does it carry a PDF header?
import { open } from 'node:fs/promises'

// "Acrobat viewers require only that the header appear somewhere within the first 1024 bytes of
// the file" (PDF Reference 1.7, Appendix H); poppler searches the same window and pdf-lib scans
// for it. Some mailers and scanners prepend a few bytes, so we accept what viewers open, no more.
export const MAGIC_WINDOW = 1024
const MAGIC = Buffer.from('%PDF-')

/** True when `%PDF-` lies wholly within the first 1024 bytes. */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MAGIC_WINDOW))
  return head.includes(MAGIC)
}

/** Reads only the first 1024 bytes, so a 50 MB download is never loaded to be checked. */
export async function fileHasPdfMagic(path: string): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(MAGIC_WINDOW), 0, MAGIC_WINDOW, 0)
    return hasPdfMagic(buffer.subarray(0, bytesRead))
  } finally {
    await file.close()
  }
}
