// docs/api.md#signing: a signature or initials value is a PNG. Checked here as the final PDF will
// read it: the chunk structure and CRCs, a header with a size of at most 4000 × 4000 pixels, and
// image data that inflates to exactly the size the header announces. A PNG that lies about its size
// (a 1 × 1 header over megabytes of pixels, a "decompression bomb") is refused here, at signing,
// rather than discovered when the final PDF is made. Inflation streams and counts, so memory stays
// flat whatever the data claims.
import { crc32, createInflate } from 'node:zlib'

export const MAX_IMAGE_PIXELS_PER_SIDE = 4000

const SIGNATURE = '89504e470d0a1a0a'
/** Channels of each PNG colour type (ISO 15948 §6.1) and the bit depths it allows. */
const COLOUR_TYPES = new Map<number, { channels: number; depths: number[] }>([
  [0, { channels: 1, depths: [1, 2, 4, 8, 16] }],
  [2, { channels: 3, depths: [8, 16] }],
  [3, { channels: 1, depths: [1, 2, 4, 8] }],
  [4, { channels: 2, depths: [8, 16] }],
  [6, { channels: 4, depths: [8, 16] }],
])
// Adam7 passes: [x start, y start, x step, y step].
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const

export interface PngInfo {
  width: number
  height: number
}

export class PngError extends Error {
  override readonly name = 'PngError'
}

interface Header extends PngInfo {
  bitsPerPixel: number
  interlaced: boolean
  colourType: number
}

function readHeader(data: Buffer): Header {
  const width = data.readUInt32BE(0)
  const height = data.readUInt32BE(4)
  const [depth, colourType, compression, filter, interlace] = data.subarray(8, 13)
  const colour = COLOUR_TYPES.get(colourType!)
  const valid = colour?.depths.includes(depth!) && compression === 0 && filter === 0 && interlace! <= 1
  if (!colour || !valid) {
    throw new PngError('has an invalid PNG header')
  }
  if (width === 0 || height === 0) throw new PngError('is an empty image (0 pixels wide or high)')
  if (width > MAX_IMAGE_PIXELS_PER_SIDE || height > MAX_IMAGE_PIXELS_PER_SIDE) {
    throw new PngError(
      `is ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS_PER_SIDE} × ${MAX_IMAGE_PIXELS_PER_SIDE}`,
    )
  }
  return {
    width,
    height,
    bitsPerPixel: colour.channels * depth!,
    interlaced: interlace === 1,
    colourType: colourType!,
  }
}

/** Bytes of filtered scanlines the header announces (ISO 15948 §7.2, §8.2). */
function expectedDataSize({ width, height, bitsPerPixel, interlaced }: Header): number {
  const lines = (w: number, h: number) =>
    w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8))
  if (!interlaced) return lines(width, height)
  let total = 0
  for (const [x0, y0, dx, dy] of ADAM7) {
    total += lines(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy))
  }
  return total
}

/** Chunks in order, CRCs checked; returns the header and the concatenated image data. */
function readChunks(bytes: Buffer): { header: Header; data: Buffer } {
  if (bytes.length < 8 || bytes.subarray(0, 8).toString('hex') !== SIGNATURE)
    throw new PngError('is not a PNG image')
  let offset = 8
  let header: Header | undefined
  let palette = false
  const data: Buffer[] = []
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const end = offset + 12 + length
    if (end > bytes.length) break
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(end - 4)) {
      throw new PngError(`is a damaged PNG (the ${type} chunk fails its checksum)`)
    }
    const body = bytes.subarray(offset + 8, offset + 8 + length)
    if (!header && (type !== 'IHDR' || length !== 13)) throw new PngError('is a PNG without a valid header')
    if (type === 'IHDR' && !header) header = readHeader(body)
    else if (type === 'PLTE') palette = true
    else if (type === 'IDAT') data.push(body)
    else if (type === 'IEND') {
      if (header!.colourType === 3 && !palette) throw new PngError('is a palette PNG without a palette')
      if (data.length === 0) throw new PngError('is a PNG without image data')
      return { header: header!, data: Buffer.concat(data) }
    }
    offset = end
  }
  throw new PngError('is a truncated PNG (no end chunk)')
}

/** Counts the inflated bytes, stopping as soon as there are more than `limit`. */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createInflate()
    let total = 0
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length
      if (total > limit) {
        inflate.destroy()
        resolve(total)
      }
    })
    inflate.on('end', () => resolve(total))
    inflate.on('error', () => reject(new PngError('is a damaged PNG (its image data does not inflate)')))
    inflate.end(data)
  })
}

/** The PNG's size when it is a well-formed image whose data matches its header; PngError otherwise. */
export async function checkPng(bytes: Buffer): Promise<PngInfo> {
  const { header, data } = readChunks(bytes)
  const expected = expectedDataSize(header)
  const actual = await inflatedSize(data, expected)
  if (actual !== expected) {
    throw new PngError(
      `lies about its size: its header says ${header.width} × ${header.height} pixels, its data ${actual > expected ? 'holds more' : 'holds less'}`,
    )
  }
  return { width: header.width, height: header.height }
}
