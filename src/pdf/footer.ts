// A small footer on every page, in the bottom margin of the page as displayed (upright on rotated
// pages). api-v1 §1: the final PDF carries "a footer stating the signature level".
import { type PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import { drawableText } from './fonts.ts'
import { drawInView, visiblePage } from './page-space.ts'
import { verticalMetrics, widthAt, wrap } from './text-fit.ts'

export const SES_STATEMENT = 'Simple electronic signature (SES) — Regulation (EU) No 910/2014'
const SEPARATOR = ' · '

/** The pieces of one page's footer, joined by " · " on a line or broken between them when narrow. */
export type FooterSegments = (pageNumber: number, pageCount: number) => string[]

/** The final PDF's footer: the legal level, the submission, and the page over the whole PDF. */
export function sesFooter(submissionId: string): FooterSegments {
  return (n, m) => [SES_STATEMENT, submissionId, `page ${n} of ${m}`]
}

/**
 * The footer of the document as it stands (issue #20): a copy for the signer to read or keep, which
 * says it is not the sealed final PDF, and since when its values have been as drawn.
 */
export function interimFooter(submissionId: string, asOf: string): FooterSegments {
  const statement = `Copy with the values entered until ${asOf} — unsealed, not the final signed document`
  return (n, m) => [statement, submissionId, `page ${n} of ${m}`]
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
  font: PDFFont,
  segments: FooterSegments,
  options: FooterOptions = {},
): void {
  const pages = doc.getPages()
  pages.forEach((page, index) => {
    const parts = segments(index + 1, pages.length).map((s) => drawableText(font, s))
    drawFooter(page, font, parts, options)
  })
}

function drawFooter(page: PDFPage, font: PDFFont, parts: string[], options: FooterOptions): void {
  const view = visiblePage(page)
  const margin = Math.min(24, view.width * 0.05)
  const { lines, size } = layoutFooter(font, parts, view.width - 2 * margin, options)
  const { ascent, descent } = verticalMetrics(font)
  const lineHeight = (ascent - descent) * size
  const bottom = options.bottom ?? Math.min(6, view.height * 0.01)
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
      for (const piece of pieces) {
        page.drawText(piece, { x, y, size, font, color: GREY })
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
  font: PDFFont,
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
function packParts(font: PDFFont, parts: string[], size: number, maxWidth: number): string[] {
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
