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
      const x = (view.width - widthAt(font, line, size)) / 2
      page.drawText(line, { x, y, size, font, color: GREY })
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

function packParts(font: PDFFont, parts: string[], size: number, maxWidth: number): string[] {
  const lines: string[] = []
  for (const part of parts) {
    const last = lines.at(-1)
    if (last !== undefined && widthAt(font, last + SEPARATOR + part, size) <= maxWidth) {
      lines[lines.length - 1] = last + SEPARATOR + part
    } else {
      lines.push(...wrap(font, part, size, maxWidth))
    }
  }
  return lines
}
