// Draws signed values into their field areas: signatures and initials as images, text,
// numbers, dates, radio and select choices as one line of text, checkboxes as a drawn check mark.
// Areas are fractions of the page as the signer saw it (page-space.ts), so values land where they
// were placed and stand upright on rotated and cropped pages.
import { createHash } from 'node:crypto'
import { degrees, drawImage, LineCapStyle, type PDFDocument, type PDFPage, rgb } from 'pdf-lib'
import { drawText } from '../text/draw-text.ts'
import { drawableText, type TextFont } from '../text/fonts.ts'
import { fitLine, verticalExtent, widthAt } from '../text/text-fit.ts'
import { shapeLine } from '../text/text-line.ts'
import { areaInView, drawInView, type FractionArea, type ViewRect, visiblePage } from './page-space.ts'
import { type EmbeddedImage, embedPngNatively } from './png-image.ts'

export type StampValue =
  /** A signature or initials drawing, as the PNG the signer sent. */
  | { kind: 'image'; png: Uint8Array }
  /** Text, a number, a date, a radio or select choice: formatted by the caller. */
  | { kind: 'text'; text: string }
  | { kind: 'check'; checked: boolean }

export interface Stamp {
  /** 1-indexed within the document. */
  page: number
  /** Fractions of the visible page (after crop and rotation), origin top-left, y downward. */
  area: FractionArea
  value: StampValue
}

const INK = rgb(0, 0, 0)
/** The API does not size text: the largest that fits, but never below this for a long value. */
export const MIN_TEXT_SIZE = 4

/**
 * Draws every stamp on `doc`. Text is drawn in `font` (fonts.ts: DejaVu, then Noto faces for other
 * scripts): characters no face has become '?'. A PNG used by several areas (initials on every page)
 * is embedded once.
 * Throws a RangeError for a page the document does not have.
 */
export async function stampFields(doc: PDFDocument, stamps: Stamp[], font: TextFont): Promise<void> {
  const pages = doc.getPages()
  const images = new Map<string, EmbeddedImage>()
  for (const stamp of stamps) {
    const page = pages[stamp.page - 1]
    if (!page) throw new RangeError(`stamp on page ${stamp.page}, but the document has ${pages.length}`)
    const image = stamp.value.kind === 'image' ? await embedOnce(doc, images, stamp.value.png) : undefined
    drawStamp(page, stamp, font, image)
  }
}

async function embedOnce(doc: PDFDocument, images: Map<string, EmbeddedImage>, png: Uint8Array) {
  const key = createHash('sha256').update(png).digest('hex')
  let image = images.get(key)
  if (!image) {
    image = embedPngNatively(doc, png) ?? (await doc.embedPng(png))
    images.set(key, image)
  }
  return image
}

function drawStamp(page: PDFPage, stamp: Stamp, font: TextFont, image: EmbeddedImage | undefined): void {
  const view = visiblePage(page)
  const rect = areaInView(stamp.area, view)
  const { value } = stamp
  drawInView(page, view, () => {
    if (image) drawImageFitted(page, image, rect)
    else if (value.kind === 'text') drawTextFitted(page, value.text, font, rect)
    else if (value.kind === 'check' && value.checked) drawCheckMark(page, rect)
  })
}

/** The whole image, as large as the area allows with its aspect ratio kept, centred. */
export function drawImageFitted(page: PDFPage, image: EmbeddedImage, rect: ViewRect): void {
  const scale = Math.min(rect.width / image.width, rect.height / image.height)
  if (!(scale > 0)) return // an area of no width or height shows nothing
  const [width, height] = [image.width * scale, image.height * scale]
  const name = page.node.newXObject('Image', image.ref)
  const at = { x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2 }
  const upright = degrees(0)
  page.pushOperators(
    ...drawImage(name, { ...at, width, height, rotate: upright, xSkew: upright, ySkew: upright }),
  )
}

/**
 * One line after a small inset, vertically centred: from the left edge, or from the right one when
 * the value reads right to left (an Arabic or Hebrew name).
 */
export function drawTextFitted(page: PDFPage, text: string, font: TextFont, rect: ViewRect): void {
  const insetX = Math.min(2, rect.width * 0.05)
  const insetY = Math.min(1.5, rect.height * 0.1)
  const [width, height] = [rect.width - 2 * insetX, rect.height - 2 * insetY]
  const drawable = drawableText(font, text).trim()
  const extent = verticalExtent(font, drawable)
  const line = fitLine(font, drawable, width, height, extent, { minSize: MIN_TEXT_SIZE })
  if (!line.text || !(line.size > 0)) return
  // Centred on the font's own ascent and descent, so values of different letters share a
  // baseline height in equal boxes; the extent only widens them for a tall accent.
  const { ascent, descent } = extent
  const baseline = rect.y + (rect.height - (ascent - descent) * line.size) / 2 - descent * line.size
  const x = shapeLine(font.typeface, line.text).rtl
    ? rect.x + rect.width - insetX - widthAt(font, line.text, line.size)
    : rect.x + insetX
  drawText(page, font, line.text, { x, y: baseline, size: line.size, color: INK })
}

/**
 * A tick drawn as two stroked lines in the largest centred square, not a glyph: DejaVu's ✓ would
 * depend on the font, and a line reads the same in every viewer.
 */
export function drawCheckMark(page: PDFPage, rect: ViewRect): void {
  const side = Math.min(rect.width, rect.height) * 0.8
  if (!(side > 0)) return
  const [left, bottom] = [rect.x + (rect.width - side) / 2, rect.y + (rect.height - side) / 2]
  const at = (fx: number, fy: number) => ({ x: left + fx * side, y: bottom + fy * side })
  const thickness = Math.max(0.5, side * 0.12)
  // Round caps reach thickness / 2 past each end: the points stay that far inside the square.
  const inset = thickness / 2 / side
  const stroke = { thickness, color: INK, lineCap: LineCapStyle.Round }
  const valley = at(0.38, inset + 0.02)
  page.drawLine({ start: at(inset, 0.45), end: valley, ...stroke })
  page.drawLine({ start: valley, end: at(1 - inset, 1 - inset), ...stroke })
}
