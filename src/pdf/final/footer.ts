// A small footer on every page, in the bottom margin of the page as displayed (upright on rotated
// pages). docs/api.md#completion: the final PDF carries "a footer stating the signature level".
import { type PDFDocument, type PDFPage, rgb } from 'pdf-lib'
import { drawText, drawTextAsForm } from '../text/draw-text.ts'
import { drawableText, type TextFont } from '../text/fonts.ts'
import { verticalMetrics, widthAt, wrap } from '../text/text-fit.ts'
import { drawInView, visiblePage } from './page-space.ts'

export const SES_STATEMENT = 'Simple electronic signature (SES) — Regulation (EU) No 910/2014'
const SEPARATOR = ' · '

/**
 * issue #21 item 4: the footer never covers more than this fraction of a page's height, gap below
 * it included (an 85 × 46 pt page had 17.5 % of it under the full footer). A footer that would
 * cover more becomes one short line (`short`: the level and the submission), as large as the band
 * and the width allow, never wrapped. At 7 pt, one line needs a page about 180 pt high.
 */
export const FOOTER_BAND = 0.08

/** The pieces of one page's footer, joined by " · " on a line or broken between them when narrow. */
export interface FooterSegments {
  (pageNumber: number, pageCount: number): string[]
  /** The one line of pages too small for the footer; without it, the first two pieces. */
  short?: string[]
}

/** The final PDF's footer: the legal level, the submission, and the page over the whole PDF. */
export function sesFooter(submissionId: string): FooterSegments {
  const footer = (n: number, m: number) => [SES_STATEMENT, submissionId, `page ${n} of ${m}`]
  return Object.assign(footer, { short: ['SES', submissionId] })
}

/**
 * The footer of the document as it stands: a copy for the signer to read or keep, which
 * says it is not the sealed final PDF, and since when its values have been as drawn.
 */
export function interimFooter(submissionId: string, asOf: string): FooterSegments {
  const statement = `Copy with the values entered until ${asOf} — unsealed, not the final signed document`
  const footer = (n: number, m: number) => [statement, submissionId, `page ${n} of ${m}`]
  return Object.assign(footer, { short: ['Unsealed copy', submissionId] })
}

export interface FooterOptions {
  /** Preferred size in points (7); on narrow pages one line shrinks to `minSize` (5), then wraps. */
  size?: number
  minSize?: number
  /** Gap between the page's bottom edge and the footer's lowest descender, in points. */
  bottom?: number
}

const GREY = rgb(0.3, 0.3, 0.3)

/** Draws the footer on every page of `doc`, numbering pages over the whole document. */
export function addFooters(
  doc: PDFDocument,
  font: TextFont,
  segments: FooterSegments,
  options: FooterOptions = {},
): void {
  const pages = doc.getPages()
  // Most pieces are the same on every page: each is made drawable once.
  const drawn = new Map<string, string>()
  const drawable = (texts: string[]) =>
    texts.map((text) => {
      let made = drawn.get(text)
      if (made === undefined) {
        made = drawableText(font, text)
        if (drawn.size < 16) drawn.set(text, made)
      }
      return made
    })
  pages.forEach((page, index) => {
    const parts = segments(index + 1, pages.length)
    const short = segments.short ?? parts.slice(0, 2)
    drawFooter(page, font, { parts: drawable(parts), short: drawable(short) }, options)
  })
}

interface PlacedFooter {
  lines: string[]
  size: number
  /** From the page's bottom edge to the lowest descender. */
  bottom: number
}

/**
 * The full footer when it stays within FOOTER_BAND of `view.height`; else the short parts on one
 * line, at most `minSize`, shrunk to the band's height and the width.
 */
export function placeFooter(
  font: TextFont,
  texts: { parts: string[]; short: string[] },
  view: { width: number; height: number },
  options: FooterOptions = {},
): PlacedFooter {
  const maxWidth = view.width - 2 * Math.min(24, view.width * 0.05)
  const { ascent, descent } = verticalMetrics(font)
  const band = view.height * FOOTER_BAND
  const bottom = options.bottom ?? Math.min(6, view.height * 0.01)
  const full = layoutFooter(font, texts.parts, maxWidth, options)
  if (bottom + full.lines.length * (ascent - descent) * full.size <= band) return { ...full, bottom }
  const line = texts.short.join(SEPARATOR)
  const gap = Math.min(bottom, band * 0.25)
  const byHeight = (band - gap) / (ascent - descent)
  const byWidth = maxWidth / Math.max(widthAt(font, line, 1), Number.MIN_VALUE)
  // A hair under the bounds, so rounding never puts the line a fraction past them.
  const size = Math.min(options.minSize ?? 5, byHeight, byWidth) * (1 - 1e-9)
  return { lines: [line], size, bottom: gap }
}

function drawFooter(
  page: PDFPage,
  font: TextFont,
  texts: { parts: string[]; short: string[] },
  options: FooterOptions,
): void {
  const view = visiblePage(page)
  const { lines, size, bottom } = placeFooter(font, texts, view, options)
  const { ascent, descent } = verticalMetrics(font)
  const lineHeight = (ascent - descent) * size
  drawInView(page, view, () => {
    lines.forEach((line, i) => {
      const y = bottom + (lines.length - 1 - i) * lineHeight - descent * size
      // Drawn as the line up to its last separator, the same on most pages (shaped once per
      // process), and the rest ("page 7 of 100"): shaping a whole new line per page was the larger
      // part of footing 100 pages. Both pieces meet at a space, where no kerning applies.
      const cut = line.lastIndexOf(SEPARATOR)
      const pieces =
        cut < 0 ? [line] : [line.slice(0, cut + SEPARATOR.length), line.slice(cut + SEPARATOR.length)]
      let x = (view.width - pieces.reduce((sum, piece) => sum + widthAt(font, piece, size), 0)) / 2
      for (const [k, piece] of pieces.entries()) {
        // The common part is written once in the file and drawn on each page by reference.
        const draw = k === 0 && pieces.length > 1 ? drawTextAsForm : drawText
        draw(page, font, piece, { x, y, size, color: GREY })
        x += widthAt(font, piece, size)
      }
    })
  })
}

/**
 * One line, at the preferred size or shrunk down to `minSize`; when even that is too wide, lines
 * at the preferred size (legible beats short), broken between parts first and inside a part only
 * when it alone is too wide (a page a few centimetres across).
 */
export function layoutFooter(
  font: TextFont,
  parts: string[],
  maxWidth: number,
  { size = 7, minSize = 5 }: FooterOptions = {},
): { lines: string[]; size: number } {
  for (let s = size; s >= minSize; s -= 0.5) {
    const lines = packParts(font, parts, s, maxWidth)
    if (lines.length === 1) return { lines, size: s }
  }
  return { lines: packParts(font, parts, size, maxWidth), size }
}

/** Lines of parts; widths are summed from each part's (cached) width, not measured per new line. */
function packParts(font: TextFont, parts: string[], size: number, maxWidth: number): string[] {
  const lines: Array<{ text: string; width: number }> = []
  const separator = widthAt(font, SEPARATOR, size)
  for (const part of parts) {
    const last = lines.at(-1)
    const width = widthAt(font, part, size)
    if (last !== undefined && last.width + separator + width <= maxWidth) {
      last.text += SEPARATOR + part
      last.width += separator + width
    } else {
      lines.push(
        ...wrap(font, part, size, maxWidth).map((text) => ({ text, width: widthAt(font, text, size) })),
      )
    }
  }
  return lines.map((line) => line.text)
}
