// Writes a ZIP of stored (uncompressed) entries, for the DOCX converter: once the zip gate has
// inflated and checked every entry, and the main document's images have been given their sizes
// (docx-image-sizes.ts), mammoth reads this archive, where JSZip has nothing left to inflate.
// APPNOTE 6.3.10 §4.3: local headers and data, central directory, End of Central Directory.
import { crc32 } from 'node:zlib'

const UTF8_NAMES = 0x800

/** A stored ZIP of `files`, in their order; names are written as UTF-8. */
export function storedZip(files: Map<string, Buffer>): Buffer {
  const parts: Buffer[] = []
  const directory: Buffer[] = []
  let offset = 0
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name, 'utf8')
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(10, 4)
    local.writeUInt16LE(UTF8_NAMES, 6)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(10, 4)
    central.writeUInt16LE(10, 6)
    central.writeUInt16LE(UTF8_NAMES, 8)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    parts.push(local, nameBytes, data)
    directory.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const centralBytes = Buffer.concat(directory)
  const eocd = Buffer.alloc(22)
  eocd.writeUInt32LE(0x06054b50, 0)
  eocd.writeUInt16LE(files.size, 8)
  eocd.writeUInt16LE(files.size, 10)
  eocd.writeUInt32LE(centralBytes.length, 12)
  eocd.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, centralBytes, eocd])
}
