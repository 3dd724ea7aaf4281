// The gate a DOCX passes before mammoth opens it (docs/security.md#hostile-pdf-and-docx-inputs): a
// DOCX is a ZIP, and JSZip, inside mammoth, inflates whatever the archive holds, with no limit. So
// the End of Central Directory and the central directory are read first, without inflating
// anything, and anything a Word file has no need for is refused: ZIP64, more than 1 000 entries,
// more than 50 MiB declared, a ratio past 100:1, encryption, methods other than stored and deflate,
// overlapping or duplicate entries (the shapes of zip bombs). A bomb is refused here in
// microseconds. Then verifyZipEntries inflates every entry, each capped at its declared size plus
// one byte, so a directory that lies about sizes is refused too and the total inflated stays within
// the 50 MiB. Offsets are read as JSZip reads them (data after the local header, sized by the
// central directory), so what passed the gate is what mammoth reads.
import { crc32, inflateRawSync } from 'node:zlib'
import { LIMITS } from '../limits.ts'
import { RenderError } from './render-error.ts'

export interface ZipEntry {
  name: string
  method: 0 | 8
  crc: number
  compressedSize: number
  uncompressedSize: number
  /** Where the entry's compressed bytes start (after its local header). */
  dataOffset: number
}

const EOCD = 0x06054b50
const EOCD64_LOCATOR = 0x07064b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const EOCD_SIZE = 22
const CENTRAL_SIZE = 46
const LOCAL_SIZE = 30

const refuse = (message: string): never => {
  throw new RenderError('refused_docx', `file: ${message}`)
}
const damaged = (what: string) => refuse(`the DOCX's ZIP archive is damaged or truncated (${what})`)
const zip64 = () => refuse('the DOCX is a ZIP64 archive; Word never writes one and it is not accepted')
const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

/** The EOCD record's offset, searched backwards as JSZip does (it may be followed by a comment). */
function findEocd(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - 0xffff)
  for (let at = bytes.length - EOCD_SIZE; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === EOCD) return at
  }
  return -1
}

/** Where the central directory is and how many entries it has, from the EOCD record. */
function readEocd(bytes: Buffer): { eocd: number; count: number; cdOffset: number } {
  const isZip = bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL
  const eocd = bytes.length >= EOCD_SIZE ? findEocd(bytes) : -1
  if (eocd < 0) {
    return isZip
      ? damaged('no end of central directory')
      : refuse('not a Word document (DOCX): not a ZIP archive')
  }
  if (eocd >= 20 && bytes.readUInt32LE(eocd - 20) === EOCD64_LOCATOR) zip64()
  const [disk, cdDisk] = [bytes.readUInt16LE(eocd + 4), bytes.readUInt16LE(eocd + 6)]
  const [onDisk, count] = [bytes.readUInt16LE(eocd + 8), bytes.readUInt16LE(eocd + 10)]
  const [cdSize, cdOffset] = [bytes.readUInt32LE(eocd + 12), bytes.readUInt32LE(eocd + 16)]
  if (onDisk === 0xffff || count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) zip64()
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) refuse('the ZIP archive is split over several files')
  if (count > LIMITS.docxEntries) {
    refuse(`the ZIP archive has ${count} entries; a DOCX may have at most ${LIMITS.docxEntries}`)
  }
  // Strict: the directory ends where the EOCD starts (no data prepended, nothing hidden between).
  if (cdOffset + cdSize !== eocd) damaged('the central directory is not where the archive says')
  return { eocd, count, cdOffset }
}

/** The entries of a DOCX's ZIP, from its central directory; RenderError `refused_docx` for anything refused. */
export function readZipDirectory(bytes: Buffer): ZipEntry[] {
  const { eocd, count, cdOffset } = readEocd(bytes)
  const entries: ZipEntry[] = []
  const names = new Set<string>()
  let at = cdOffset
  let total = 0
  for (let index = 0; index < count; index++) {
    if (at + CENTRAL_SIZE > eocd || bytes.readUInt32LE(at) !== CENTRAL) damaged('bad central directory entry')
    const entry = readEntry(bytes, at, cdOffset)
    if (names.has(entry.name)) damaged(`two entries are named ${entry.name}`)
    names.add(entry.name)
    total += entry.uncompressedSize
    if (total > LIMITS.docxUncompressedBytes) {
      refuse(`the DOCX would expand to more than ${mib(LIMITS.docxUncompressedBytes)}; it may be a zip bomb`)
    }
    entries.push(entry)
    at +=
      CENTRAL_SIZE + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
  }
  if (at !== eocd) damaged('the central directory has more entries than the archive says')
  checkNoOverlap(entries)
  if (!names.has('[Content_Types].xml') || !names.has('word/document.xml')) {
    refuse('not a Word document (DOCX): the ZIP archive has no word/document.xml or [Content_Types].xml')
  }
  return entries
}

/** One central directory entry at `at`, with its local header checked against it. */
function readEntry(bytes: Buffer, at: number, cdOffset: number): ZipEntry {
  const flags = bytes.readUInt16LE(at + 8)
  const method = bytes.readUInt16LE(at + 10)
  const crc = bytes.readUInt32LE(at + 16)
  const compressedSize = bytes.readUInt32LE(at + 20)
  const uncompressedSize = bytes.readUInt32LE(at + 24)
  const nameLength = bytes.readUInt16LE(at + 28)
  const localOffset = bytes.readUInt32LE(at + 42)
  const rawName = bytes.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength)
  const name = rawName.toString(flags & 0x800 ? 'utf8' : 'latin1')
  if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localOffset === 0xffffffff) zip64()
  if (flags & 0x1) refuse(`the DOCX is encrypted (entry ${name}); remove the password and send it again`)
  if (method !== 0 && method !== 8) {
    refuse(`entry ${name} uses ZIP compression method ${method}; only stored and deflate are accepted`)
  }
  if (method === 0 && compressedSize !== uncompressedSize) damaged(`stored entry ${name} has two sizes`)
  if (
    uncompressedSize > LIMITS.docxRatioFloorBytes &&
    uncompressedSize > LIMITS.docxRatio * Math.max(compressedSize, 1)
  ) {
    refuse(
      `entry ${name} expands more than ${LIMITS.docxRatio} times (${compressedSize} bytes to ${uncompressedSize}); it may be a zip bomb`,
    )
  }
  if (localOffset + LOCAL_SIZE > cdOffset || bytes.readUInt32LE(localOffset) !== LOCAL) {
    damaged(`bad local header for ${name}`)
  }
  // JSZip takes the entry's name from its local header: it must be the one checked here.
  const localName = localOffset + LOCAL_SIZE
  const localNameLength = bytes.readUInt16LE(localOffset + 26)
  if (!bytes.subarray(localName, localName + localNameLength).equals(rawName)) {
    damaged(`entry ${name} has another name in its local header`)
  }
  const dataOffset = localName + localNameLength + bytes.readUInt16LE(localOffset + 28)
  if (dataOffset + compressedSize > cdOffset) damaged(`entry ${name} runs past the end of the data`)
  return { name, method: method as 0 | 8, crc, compressedSize, uncompressedSize, dataOffset }
}

/** Entries sharing bytes are how the densest zip bombs reuse one compressed stream. */
function checkNoOverlap(entries: ZipEntry[]): void {
  const sorted = [...entries].sort((a, b) => a.dataOffset - b.dataOffset)
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!
    if (sorted[i]!.dataOffset < previous.dataOffset + previous.compressedSize) {
      damaged(`entries ${previous.name} and ${sorted[i]!.name} overlap`)
    }
  }
}

/**
 * Inflates every entry, never past its declared size plus one byte, and checks its size and CRC:
 * a directory that understated a size is refused before mammoth trusts it. Returns the contents.
 */
export function inflateZipEntries(bytes: Buffer, entries: ZipEntry[]): Map<string, Buffer> {
  const contents = new Map<string, Buffer>()
  for (const entry of entries) {
    const content = inflateEntry(bytes, entry)
    if (content.length !== entry.uncompressedSize) {
      damaged(`entry ${entry.name} inflates to ${content.length} bytes, not ${entry.uncompressedSize}`)
    }
    if (crc32(content) !== entry.crc) damaged(`entry ${entry.name} fails its CRC check`)
    contents.set(entry.name, content)
  }
  return contents
}

/** inflateZipEntries for its checks alone. */
export function verifyZipEntries(bytes: Buffer, entries: ZipEntry[]): void {
  inflateZipEntries(bytes, entries)
}

function inflateEntry(bytes: Buffer, entry: ZipEntry): Buffer {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize)
  if (entry.method === 0) return data
  try {
    return inflateRawSync(data, { maxOutputLength: entry.uncompressedSize + 1 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      refuse(
        `entry ${entry.name} inflates past the ${entry.uncompressedSize} bytes its directory declares; it may be a zip bomb`,
      )
    }
    return damaged(`entry ${entry.name} does not inflate`)
  }
}

/** Both steps: the directory, then the real sizes. */
export function gateDocxZip(bytes: Buffer): ZipEntry[] {
  const entries = readZipDirectory(bytes)
  verifyZipEntries(bytes, entries)
  return entries
}
