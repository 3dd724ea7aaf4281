// Signature and initials PNGs as PDF images, through node's zlib. pdf-lib's embedPng decodes and
// re-compresses in JavaScript (UPNG and pako): 20 of the 27 ms of a one-page final PDF with three
// 600 × 200 signatures. The signing page sends 8-bit, non-interlaced RGBA (a canvas export), which
// this handles natively; any other PNG returns undefined and the caller uses pdf-lib's embedder.
import { createHash } from 'node:crypto'
import { deflateSync, inflateSync } from 'node:zlib'
import type { PDFDocument, PDFRef } from 'pdf-lib'

export interface EmbeddedImage {
  ref: PDFRef
  /** Pixels. */
  width: number
  height: number
}

// A bound on decoding: 16 million pixels is a 4096 × 4096 drawing, far past any signature pad,
// while a 512 KB PNG of zeros could claim to inflate to gigabytes.
export const MAX_PNG_PIXELS = 4096 * 4096

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** Colour type → channels, for the types embedded here (PNG specification §11.2.2, Table 11.1). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 }

interface PngInfo {
  width: number
  height: number
  channels: number
  hasAlpha: boolean
  idat: Buffer
}

/** The header and compressed pixels of a PNG this module can embed, or undefined. */
function readPng(bytes: Uint8Array): PngInfo | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (data.length < 33 || SIGNATURE.some((b, i) => data[i] !== b)) return undefined
  const idat: Buffer[] = []
  let header: Buffer | undefined
  for (let at = 8; at + 8 <= data.length; ) {
    const length = data.readUInt32BE(at)
    const type = data.toString('latin1', at + 4, at + 8)
    const body = data.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') header = body
    else if (type === 'IDAT') idat.push(body)
    // Transparency by colour key or palette: pdf-lib's embedder knows those.
    else if (type === 'tRNS' || type === 'PLTE') return undefined
    else if (type === 'IEND') break
    at += 12 + length
  }
  if (!header || header.length < 13 || idat.length === 0) return undefined
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)]
  const [depth, colourType, interlace] = [header[8], header[9]!, header[12]]
  const channels = CHANNELS[colourType]
  if (depth !== 8 || interlace !== 0 || !channels || width === 0 || height === 0) return undefined
  if (width * height > MAX_PNG_PIXELS) {
    throw new RangeError(`a PNG of ${width} × ${height} pixels is larger than ${MAX_PNG_PIXELS} pixels`)
  }
  return {
    width,
    height,
    channels,
    hasAlpha: colourType === 4 || colourType === 6,
    idat: Buffer.concat(idat),
  }
}

/** Reverses the per-row filters (PNG specification §9.2), returning the pixels alone. */
function unfilter(raw: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp
  const out = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const row = out.subarray(y * stride, (y + 1) * stride)
    // Row 0 has an implicit row of zeros above it.
    const above = y > 0 ? out.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride)
    unfilterRow(filter, line, row, above, bpp, y)
  }
  return out
}

// One loop per filter type, so the per-byte work has no branch on the type.
function unfilterRow(filter: number, line: Buffer, row: Buffer, above: Buffer, bpp: number, y: number): void {
  const n = row.length
  switch (filter) {
    case 0:
      row.set(line)
      return
    case 1:
      for (let i = 0; i < n; i++) row[i] = line[i]! + (i >= bpp ? row[i - bpp]! : 0)
      return
    case 2:
      for (let i = 0; i < n; i++) row[i] = line[i]! + above[i]!
      return
    case 3:
      for (let i = 0; i < n; i++) row[i] = line[i]! + (((i >= bpp ? row[i - bpp]! : 0) + above[i]!) >> 1)
      return
    case 4:
      for (let i = 0; i < n; i++) {
        const left = i >= bpp
        row[i] = line[i]! + paeth(left ? row[i - bpp]! : 0, above[i]!, left ? above[i - bpp]! : 0)
      }
      return
    default:
      throw new RangeError(`PNG row ${y} has an unknown filter type ${filter}`)
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** Colour and alpha as separate planes: PDF takes transparency as a soft mask (ISO 32000-1 §11.6.5.3). */
function splitAlpha(pixels: Buffer, channels: number): { colour: Buffer; alpha: Buffer } {
  const count = pixels.length / channels
  const colour = Buffer.alloc(count * (channels - 1))
  const alpha = Buffer.alloc(count)
  for (let p = 0, c = 0; p < count; p++) {
    const at = p * channels
    for (let k = 0; k < channels - 1; k++) colour[c++] = pixels[at + k]!
    alpha[p] = pixels[at + channels - 1]!
  }
  return { colour, alpha }
}

function imageDict(png: PngInfo, colourChannels: number, extra: Record<string, unknown> = {}) {
  return {
    Type: 'XObject',
    Subtype: 'Image',
    Width: png.width,
    Height: png.height,
    BitsPerComponent: 8,
    ColorSpace: colourChannels === 1 ? 'DeviceGray' : 'DeviceRGB',
    Filter: 'FlateDecode',
    ...extra,
  }
}

/** A PNG with alpha as its two compressed planes; an opaque one's alpha is null. */
interface Planes {
  colour: Buffer
  alpha: Buffer | null
}

/**
 * The planes of the last PNGs embedded, by the SHA-256 of their bytes: a finalization draws the
 * same signatures on the final PDF and in its audit trail, and decoding, splitting and compressing
 * them was a third of the audit trail's time. A few entries (one submission's drawings) suffice.
 */
const planesCache = new Map<string, Planes>()
const PLANES_CACHED = 16

function planesOf(png: PngInfo, bytes: Uint8Array): Planes {
  const key = createHash('sha256').update(bytes).digest('hex')
  const cached = planesCache.get(key)
  if (cached) return cached
  const { width, height, channels } = png
  const raw = inflateSync(png.idat, { maxOutputLength: (width * channels + 1) * height })
  if (raw.length !== (width * channels + 1) * height) throw new RangeError('the PNG image data is truncated')
  const { colour, alpha } = splitAlpha(unfilter(raw, width, height, channels), channels)
  const planes = {
    colour: deflateSync(colour),
    alpha: alpha.some((a) => a !== 255) ? deflateSync(alpha) : null,
  }
  if (planesCache.size >= PLANES_CACHED) planesCache.delete(planesCache.keys().next().value!)
  planesCache.set(key, planes)
  return planes
}

/** The PNG as an image XObject of `doc`, or undefined for a kind of PNG this does not handle. */
export function embedPngNatively(doc: PDFDocument, bytes: Uint8Array): EmbeddedImage | undefined {
  const png = readPng(bytes)
  if (!png) return undefined
  const { context } = doc
  const { width, height, channels } = png
  if (!png.hasAlpha) {
    // Opaque: the PNG's own compressed rows are a valid Flate stream with the PNG predictor
    // (ISO 32000-1 §7.4.4.4, Table 9), copied as they are.
    const parms = { Predictor: 15, Colors: channels, BitsPerComponent: 8, Columns: width }
    const dict = imageDict(png, channels, { DecodeParms: parms })
    return { ref: context.register(context.stream(png.idat, dict)), width, height }
  }
  const planes = planesOf(png, bytes)
  const extra: Record<string, unknown> = {}
  if (planes.alpha) extra.SMask = context.register(context.stream(planes.alpha, imageDict(png, 1)))
  const dict = imageDict(png, channels - 1, extra)
  return { ref: context.register(context.stream(planes.colour, dict)), width, height }
}
