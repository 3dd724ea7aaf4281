// A small flowing layout for generated documents (the audit trail): headings, wrapped paragraphs
// and tables whose rows break across pages, with the table header repeated. Text is made drawable
// (fonts.ts) and wrapped (text-fit.ts) here, so callers pass plain strings.
import { type Color, PageSizes, type PDFDocument, type PDFPage, rgb } from 'pdf-lib'
import { drawText } from './draw-text.ts'
import { drawableText, type TextFont } from './fonts.ts'
import { truncate, verticalMetrics, wrap } from './text-fit.ts'

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

export type Cell = Run[]

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

interface LaidRun {
  lines: string[]
  font: TextFont
  size: number
  color: Color
}

export class Flow {
  private page!: PDFPage
  /** Top of the space left on the page, in points from its bottom edge. */
  private y = 0
  readonly left: number
  readonly width: number

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: FlowFonts,
    private readonly size: [number, number] = PageSizes.A4,
    private readonly margin = { top: 50, bottom: 56, side: 50 },
  ) {
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
  table(columns: Column[], rows: Cell[][], { header = true } = {}): void {
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
        if (headerRow) this.drawRow(columns, headerRow, HEADER_FILL)
        else this.rule()
        opened = true
      }
      this.drawRow(columns, row)
    }
  }

  private lay(run: Run, width: number): LaidRun {
    const font = this.fonts[run.font ?? 'sans']
    const size = run.size ?? 8.5
    // More than a page could show anyway (layRow cuts a cell at a page): not worth wrapping.
    const text = run.text.length > MAX_RUN ? `${run.text.slice(0, MAX_RUN)}…` : run.text
    const lines = wrap(font, drawableText(font, text), size, width)
    return { lines, font, size, color: run.color ?? TEXT_COLOUR }
  }

  /**
   * Every cell's runs wrapped to its column. A cell taller than a page (a user agent of
   * kilobytes) is cut to what a page holds and ends with an ellipsis; the JSON trail keeps it whole.
   */
  private layRow(columns: Column[], cells: Cell[], reserved = 0): LaidRun[][] {
    const limit = this.size[1] - this.margin.top - this.margin.bottom - reserved - 2 * PAD_Y
    return columns.map((column, i) => {
      let left = limit
      return (cells[i] ?? []).map((run) => {
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

  private drawRow(columns: Column[], row: LaidRun[][], fill?: Color): void {
    const rowH = rowHeight(row)
    if (fill)
      this.page.drawRectangle({
        x: this.left,
        y: this.y - rowH,
        width: this.width,
        height: rowH,
        color: fill,
      })
    let x = this.left
    columns.forEach((column, i) => {
      let top = this.y - PAD_Y
      for (const run of row[i] ?? []) {
        this.drawRun(run, x + PAD_X, top)
        top -= height(run)
      }
      x += column.width
    })
    this.y -= rowH
    this.rule()
  }

  private rule(): void {
    const [start, end] = [
      { x: this.left, y: this.y },
      { x: this.left + this.width, y: this.y },
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

function height(run: LaidRun): number {
  return run.lines.length * run.size * LEADING
}

function rowHeight(row: LaidRun[][]): number {
  return Math.max(...row.map((cell) => cell.reduce((sum, run) => sum + height(run), 0))) + 2 * PAD_Y
}
