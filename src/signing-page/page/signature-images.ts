// The images a signer makes in the signature dialog, as the PNG data URLs …/sign takes
// (docs/api.md#signing): a drawing trimmed to its ink, a typed name set in the handwriting font, or
// an uploaded PNG or JPEG redrawn on a canvas, its paper made transparent. Every result is capped
// to the server's 512 KB: the data URL itself is kept under 512 KiB characters, so it holds whether
// the limit is read on the data URL or on the PNG bytes inside it.

export const SCRIPT_FONT = 'Dancing Script'
export const INK = '#0b2a5b'
const MAX_DATA_URL_CHARS = 512 * 1024
/** Read no larger file: decoding a huge photo could take the phone's memory. */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024
/** An uploaded image is redrawn at most this wide or tall: more than a field box ever prints. */
const MAX_UPLOAD_SIDE = 1200

export type UploadProblem = 'upload_type' | 'upload_too_big' | 'upload_unreadable' | 'upload_empty'

/** The smallest canvas holding every non-transparent pixel of `source`, plus a small margin. */
export function trimmed(source: HTMLCanvasElement): HTMLCanvasElement | null {
  const context = source.getContext('2d')
  if (!context) return null
  const { width, height } = source
  const pixels = context.getImageData(0, 0, width, height).data
  let top = height
  let left = width
  let right = -1
  let bottom = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((pixels[(y * width + x) * 4 + 3] ?? 0) > 8) {
        if (x < left) left = x
        if (x > right) right = x
        if (y < top) top = y
        if (y > bottom) bottom = y
      }
    }
  }
  if (right < 0) return null
  const margin = 4
  const out = document.createElement('canvas')
  out.width = right - left + 1 + 2 * margin
  out.height = bottom - top + 1 + 2 * margin
  out
    .getContext('2d')
    ?.drawImage(source, left - margin, top - margin, out.width, out.height, 0, 0, out.width, out.height)
  return out
}

/** The typed text drawn in the handwriting font on a canvas of its own size. */
export async function typedCanvas(text: string): Promise<HTMLCanvasElement> {
  const size = 96
  await document.fonts.load(`${size}px "${SCRIPT_FONT}"`, text).catch(() => [])
  const probe = document.createElement('canvas').getContext('2d')
  const font = `${size}px "${SCRIPT_FONT}", cursive`
  let width = 400
  if (probe) {
    probe.font = font
    width = Math.ceil(probe.measureText(text).width) + 40
  }
  const canvas = document.createElement('canvas')
  canvas.width = Math.min(3000, Math.max(40, width))
  canvas.height = Math.round(size * 1.6)
  const context = canvas.getContext('2d')
  if (context) {
    context.font = font
    context.fillStyle = INK
    context.textBaseline = 'middle'
    context.fillText(text, 20, canvas.height / 2)
  }
  return canvas
}

function scaled(source: HTMLCanvasElement, factor: number): HTMLCanvasElement {
  const out = document.createElement('canvas')
  out.width = Math.max(1, Math.round(source.width * factor))
  out.height = Math.max(1, Math.round(source.height * factor))
  out.getContext('2d')?.drawImage(source, 0, 0, out.width, out.height)
  return out
}

/** The canvas as a PNG data URL within the server's limit, made smaller until it fits; null if never. */
export function cappedPng(canvas: HTMLCanvasElement): string | null {
  let current = canvas
  for (let attempt = 0; attempt < 12; attempt++) {
    const url = current.toDataURL('image/png')
    if (url.length <= MAX_DATA_URL_CHARS) return url
    current = scaled(current, 0.8)
  }
  return null
}

/**
 * Paper made transparent: the brightest tenth of the image is taken as the paper's tone (a phone
 * photo's paper is grey, a scan's white), anything near it becomes transparent, with a soft edge so
 * strokes keep their anti-aliasing.
 */
function clearPaper(context: CanvasRenderingContext2D, width: number, height: number): void {
  const image = context.getImageData(0, 0, width, height)
  const data = image.data
  const histogram = new Uint32Array(256)
  let opaque = 0
  for (let i = 0; i < data.length; i += 4) {
    if ((data[i + 3] ?? 0) === 0) continue
    histogram[Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!)]!++
    opaque++
  }
  let paper = 255
  for (let seen = 0; paper > 0 && seen < opaque * 0.1; paper--) seen += histogram[paper]!
  const cut = Math.max(128, paper - 40)
  const soft = 48
  for (let i = 0; i < data.length; i += 4) {
    const luma = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!
    if (luma >= cut) data[i + 3] = 0
    else if (luma > cut - soft) data[i + 3] = Math.round((data[i + 3]! * (cut - luma)) / soft)
  }
  context.putImageData(image, 0, 0)
}

/** An uploaded PNG or JPEG as a PNG data URL of its ink, or why it cannot be one. */
export async function pngFromImageFile(file: Blob): Promise<{ png: string } | { problem: UploadProblem }> {
  if (file.type !== 'image/png' && file.type !== 'image/jpeg') return { problem: 'upload_type' }
  if (file.size > MAX_UPLOAD_BYTES) return { problem: 'upload_too_big' }
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    return { problem: 'upload_unreadable' }
  }
  const factor = Math.min(1, MAX_UPLOAD_SIDE / bitmap.width, MAX_UPLOAD_SIDE / bitmap.height)
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(bitmap.width * factor))
  canvas.height = Math.max(1, Math.round(bitmap.height * factor))
  const context = canvas.getContext('2d', { willReadFrequently: true })
  if (!context) return { problem: 'upload_unreadable' }
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  bitmap.close()
  clearPaper(context, canvas.width, canvas.height)
  const ink = trimmed(canvas)
  if (!ink) return { problem: 'upload_empty' }
  const png = cappedPng(ink)
  return png ? { png } : { problem: 'upload_too_big' }
}
