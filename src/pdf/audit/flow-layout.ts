// A small flowing layout for generated documents (the audit trail): headings, wrapped paragraphs
// and tables whose rows break across pages, with the table header repeated; pictures in cells and
// a column set beside a block (a signer's signature beside their details). Text is made drawable
// (fonts.ts) and wrapped here (address-wrap.ts: an e-mail, a hash or an id breaks only at its own
// boundaries), so callers pass plain strings.
import { type Color, PageSizes, type PDFDocument, type PDFPage, rgb } from 'pdf-lib'
import type { EmbeddedImage } from '../final/png-image.ts'
import { drawImageFitted } from '../final/stamp-fields.ts'
import { drawText } from '../text/draw-text.ts'
import { drawableText, type TextFont } from '../text/fonts.ts'
import { truncate, verticalMetrics } from '../text/text-fit.ts'
import { wrapAtBoundaries } from './address-wrap.ts'

export interface FlowFonts {
  sans: TextFont
  bold: TextFont
  mono: TextFont
}

/** One paragraph of a cell or of the page; each starts on a new line. */
export interface Run {
  text: string
  font?: keyof FlowFonts
  size?: number
  color?: Color
}

/** An image drawn whole in a framed box of `width` × `height` points, its aspect ratio kept. */
export interface Picture {
  picture: EmbeddedImage
  width: number
  height: number
}

export type Cell = Array<Run | Picture>

export interface Column {
  title: string
  width: number
}

export const TEXT_COLOUR = rgb(0.1, 0.1, 0.1)
export const MUTED = rgb(0.4, 0.4, 0.4)
const RULE = rgb(0.82, 0.82, 0.82)
const HEADER_FILL = rgb(0.93, 0.93, 0.93)
const PAD_X = 4
const PAD_Y = 3
const LEADING = 1.25
const MAX_RUN = 20_000
// Between a block and the column set beside it; above and below a picture's frame.
const GUTTER = 12
const PICTURE_PAD = 3

interface LaidRun {
  lines: string[]
  font: TextFont
  size: number
  color: Color
}

type Laid = LaidRun | Picture

const isPicture = (item: Run | Picture | Laid): item is Picture => 'picture' in item

export class Flow {
  private page!: PDFPage
  /** Top of the space left on the page, in points from its bottom edge. */
  private y = 0
  readonly left: number
  readonly width: number

  private readonly doc: PDFDocument
  private readonly fonts: FlowFonts
  private readonly size: [number, number]
  private readonly margin: { top: number; bottom: number; side: number }
  constructor(
    doc: PDFDocument,
    fonts: FlowFonts,
    size: [number, number] = PageSizes.A4,
    margin = { top: 50, bottom: 56, side: 50 },
  ) {
    this.doc = doc
    this.fonts = fonts
    this.size = size
    this.margin = margin
    this.left = margin.side
    this.width = size[0] - 2 * margin.side
    this.newPage()
  }

  newPage(): void {
    this.page = this.doc.addPage(this.size)
    this.y = this.size[1] - this.margin.top
  }

  private get room(): number {
    return this.y - this.margin.bottom
  }

  gap(points: number): void {
    this.y -= Math.min(points, this.room)
  }

  /** A new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (height > this.room) this.newPage()
  }

  /** A heading kept with at least `keep` points of what follows. */
  heading(text: string, size: number, keep = 60): void {
    const run = this.lay({ text, font: 'bold', size }, this.width)
    this.ensure(height(run) + keep)
    this.drawRun(run, this.left, this.y)
    this.y -= height(run) + size * 0.4
  }

  paragraph(run: Run): void {
    const laid = this.lay(run, this.width)
    for (const line of laid.lines) {
      const one = { ...laid, lines: [line] }
      this.ensure(height(one))
      this.drawRun(one, this.left, this.y)
      this.y -= height(one)
    }
  }

  /**
   * Rows of cells under a header row, repeated on every page the table reaches; without a header,
   * each page's part of the table opens with a rule, as every row closes with one.
   */
  table(columns: Column[], rows: Cell[][], { header = true, width = this.width } = {}): void {
    const titles = header ? columns.map((c): Cell => [{ text: c.title, font: 'bold', size: 7.5 }]) : undefined
    const headerRow = titles && this.layRow(columns, titles)
    const opening = headerRow ? rowHeight(headerRow) : 0
    let opened = false
    for (const cells of rows) {
      const row = this.layRow(columns, cells, opening)
      if (rowHeight(row) + (opened ? 0 : opening) > this.room) {
        this.newPage()
        opened = false
      }
      if (!opened) {
        if (headerRow) this.drawRow(columns, headerRow, width, HEADER_FILL)
        else this.rule(width)
        opened = true
      }
      this.drawRow(columns, row, width)
    }
  }

  private lay(run: Run, width: number): LaidRun {
    const font = this.fonts[run.font ?? 'sans']
    const size = run.size ?? 8.5
    // More than a page could show anyway (layRow cuts a cell at a page): not worth wrapping.
    const text = run.text.length > MAX_RUN ? `${run.text.slice(0, MAX_RUN)}…` : run.text
    const lines = wrapAtBoundaries(font, drawableText(font, text), size, width)
    return { lines, font, size, color: run.color ?? TEXT_COLOUR }
  }

  /**
   * Every cell's runs wrapped to its column. A cell taller than a page (a user agent of
   * kilobytes) is cut to what a page holds and ends with an ellipsis; the JSON trail keeps it whole.
   */
  private layRow(columns: Column[], cells: Cell[], reserved = 0): Laid[][] {
    const limit = this.size[1] - this.margin.top - this.margin.bottom - reserved - 2 * PAD_Y
    return columns.map((column, i) => {
      let left = limit
      return (cells[i] ?? []).map((run): Laid => {
        if (isPicture(run)) {
          left -= height(run)
          return run
        }
        const laid = this.lay(run, column.width - 2 * PAD_X)
        const fits = Math.max(0, Math.floor(left / (laid.size * LEADING)))
        if (laid.lines.length > fits) {
          laid.lines = laid.lines.slice(0, fits)
          const last = laid.lines.length - 1
          if (last >= 0) {
            laid.lines[last] = truncate(
              laid.font,
              `${laid.lines[last]}…`,
              laid.size,
              column.width - 2 * PAD_X,
            )
          }
        }
        left -= height(laid)
        return laid
      })
    })
  }

  private drawRow(columns: Column[], row: Laid[][], width: number, fill?: Color): void {
    const rowH = rowHeight(row)
    if (fill)
      this.page.drawRectangle({
        x: this.left,
        y: this.y - rowH,
        width,
        height: rowH,
        color: fill,
      })
    let x = this.left
    columns.forEach((column, i) => {
      this.drawCell(row[i] ?? [], x + PAD_X, this.y - PAD_Y)
      x += column.width
    })
    this.y -= rowH
    this.rule(width)
  }

  /** A cell's items from `top` down, text runs and pictures alike. */
  private drawCell(cell: Laid[], x: number, top: number): void {
    for (const item of cell) {
      if (isPicture(item)) this.drawPicture(item, x, top)
      else this.drawRun(item, x, top)
      top -= height(item)
    }
  }

  private drawPicture(item: Picture, x: number, top: number): void {
    const box = { x, y: top - PICTURE_PAD - item.height, width: item.width, height: item.height }
    this.page.drawRectangle({ ...box, borderColor: RULE, borderWidth: 0.5 })
    drawImageFitted(this.page, item.picture, {
      ...box,
      x: box.x + 2,
      y: box.y + 2,
      width: box.width - 4,
      height: box.height - 4,
    })
  }

  /**
   * `aside` drawn at the right edge, `asideWidth` wide, from the current line, and `block` laid
   * out in the width left of it; what follows starts below both. The aside is kept whole on one
   * page (a new page first when it does not fit); the block may run on to the next pages, in its
   * narrower width.
   */
  beside(aside: Cell, asideWidth: number, block: (width: number) => void): void {
    const laid = this.layCell(aside, asideWidth)
    const asideHeight = laid.reduce((sum, item) => sum + height(item), 0)
    this.ensure(asideHeight)
    const [page, top] = [this.page, this.y]
    this.drawCell(laid, this.left + this.width - asideWidth, top)
    block(this.width - asideWidth - GUTTER)
    if (this.page === page) this.y = Math.min(this.y, top - asideHeight)
  }

  /** The height `cell` takes in a column `width` wide: to keep a heading with what follows. */
  measure(cell: Cell, width: number): number {
    return this.layCell(cell, width).reduce((sum, item) => sum + height(item), 0)
  }

  private layCell(cell: Cell, width: number): Laid[] {
    return cell.map((item): Laid => (isPicture(item) ? item : this.lay(item, width)))
  }

  private rule(width = this.width): void {
    const [start, end] = [
      { x: this.left, y: this.y },
      { x: this.left + width, y: this.y },
    ]
    this.page.drawLine({ start, end, thickness: 0.4, color: RULE })
  }

  /** Lines from `top` down, each on a baseline one ascent below its line's top. */
  private drawRun(run: LaidRun, x: number, top: number): void {
    const { ascent } = verticalMetrics(run.font)
    const lineHeight = run.size * LEADING
    const first = top - (lineHeight - run.size) / 2 - ascent * run.size
    run.lines.forEach((line, i) => {
      if (line)
        drawText(this.page, run.font, line, {
          x,
          y: first - i * lineHeight,
          size: run.size,
          color: run.color,
        })
    })
  }
}

function height(item: Laid): number {
  if (isPicture(item)) return item.height + 2 * PICTURE_PAD
  return item.lines.length * item.size * LEADING
}

function rowHeight(row: Laid[][]): number {
  return Math.max(...row.map((cell) => cell.reduce((sum, run) => sum + height(run), 0))) + 2 * PAD_Y
}
