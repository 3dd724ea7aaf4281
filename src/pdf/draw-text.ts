// Draws a shaped line (text-line.ts) on a pdf-lib page: each run in its embedded face (cid-font.ts),
// each glyph where HarfBuzz placed it. A glyph's /W width moves the pen as a reader draws it; TJ
// adjustments make up the difference with HarfBuzz's advance (kerning, marks with no advance) and
// text rise lifts a mark HarfBuzz raised. Where a glyph cannot say its text through /ToUnicode (a
// Devanagari vowel sign drawn before its consonant, one glyph standing for two characters), its
// cluster is marked with the text as /ActualText (ISO 32000-1 §14.9.4), which poppler and Acrobat
// read instead of the glyphs.
import {
  beginText,
  type Color,
  endMarkedContent,
  endText,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  type PDFPageLeaf,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
  setCharacterSpacing,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  setTextRise,
} from 'pdf-lib'
import { type CidFont, cidFontOf } from './cid-font.ts'
import type { TextFont } from './fonts.ts'
import { type GlyphRun, shapeLine } from './text-line.ts'

export interface DrawTextOptions {
  /** The left end of the line's baseline, in the page's (or the current transformation's) space. */
  x: number
  y: number
  size: number
  color: Color
}

const fontKeys = new WeakMap<PDFPageLeaf, Map<PDFRef, PDFName>>()

/** The page's resource name for the font, added once. */
function fontKey(page: PDFPage, ref: PDFRef): PDFName {
  let keys = fontKeys.get(page.node)
  if (!keys) {
    keys = new Map()
    fontKeys.set(page.node, keys)
  }
  let key = keys.get(ref)
  if (!key) {
    key = page.node.newFontDictionary('F', ref)
    keys.set(ref, key)
  }
  return key
}

/** Draws `text` (drawable: fonts.ts drawableText) on one line. */
export function drawText(page: PDFPage, font: TextFont, text: string, options: DrawTextOptions): void {
  const line = shapeLine(font.typeface, text)
  const operators = [pushGraphicsState(), setFillingColor(options.color), beginText()]
  let x = options.x
  for (const run of line.runs) {
    const embedded = cidFontOf(font.doc, run.face)
    operators.push(setFontAndSize(fontKey(page, embedded.ref), options.size))
    operators.push(setTextMatrix(1, 0, 0, 1, x, options.y))
    operators.push(...runOperators(page, embedded, run, line.text, options.size))
    x += run.width * options.size
  }
  operators.push(endText(), popGraphicsState())
  page.pushOperators(...operators)
}

/** A glyph where it is drawn: `x` from the run's start, `dy` above the baseline, in font units. */
interface PlacedGlyph {
  id: number
  x: number
  dy: number
}

interface Cluster {
  cluster: number
  glyphs: PlacedGlyph[]
  /** What the glyphs stand for; reversed in a right-to-left run, as the glyphs are. */
  text: string
  /** HarfBuzz's pen after the cluster, in font units from the run's start. */
  end: number
}

/**
 * The run's glyphs grouped by cluster, left to right. A right-to-left cluster's text is reversed:
 * readers take a line's text in the order it is drawn and reverse right-to-left words as a whole
 * (poppler, pdf.js), so a lam-alef ligature mapped to "لا" would come out "ال".
 */
function clusters(run: GlyphRun, text: string): Cluster[] {
  const starts = [...new Set(run.glyphs.map((glyph) => glyph.cluster))].sort((a, b) => a - b)
  const ends = new Map(starts.map((start, i) => [start, starts[i + 1] ?? run.end]))
  const out: Cluster[] = []
  let pen = 0
  for (const glyph of run.glyphs) {
    const placed = { id: glyph.id, x: pen + glyph.dx, dy: glyph.dy }
    pen += glyph.advance
    const last = out.at(-1)
    if (last?.cluster === glyph.cluster) {
      last.glyphs.push(placed)
      last.end = pen
      continue
    }
    const logical = text.slice(glyph.cluster, ends.get(glyph.cluster))
    const shown = run.rtl ? [...logical].reverse().join('') : logical
    out.push({ cluster: glyph.cluster, glyphs: [placed], text: shown, end: pen })
  }
  return out
}

function runOperators(page: PDFPage, font: CidFont, run: GlyphRun, text: string, size: number): PDFOperator[] {
  const { context } = page.doc
  const unitsPerEm = run.face.unitsPerEm
  const operators: PDFOperator[] = []
  let shown: Array<PDFHexString | number> = []
  const show = () => {
    if (shown.length > 0) operators.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [context.obj(shown)]))
    shown = []
  }
  // Where the PDF's text position is, in font units from the run's start, and the text rise.
  let at = 0
  let rise = 0
  const draw = (glyph: PlacedGlyph, spacing = 0) => {
    if (glyph.dy !== rise) {
      show()
      rise = glyph.dy
      operators.push(setTextRise(round((rise * size) / unitsPerEm)))
    }
    // TJ numbers are thousandths of the font size, subtracted from the position.
    if (Math.abs(glyph.x - at) > 0.01) shown.push(round((-(glyph.x - at) * 1000) / unitsPerEm))
    if (spacing !== 0) {
      show()
      operators.push(setCharacterSpacing(round((spacing * size) / unitsPerEm)))
    }
    shown.push(PDFHexString.of(glyph.id.toString(16).padStart(4, '0')))
    at = glyph.x + (font.width(glyph.id) * unitsPerEm) / 1000 + spacing
    if (spacing !== 0) {
      show()
      operators.push(setCharacterSpacing(0))
    }
  }
  for (const cluster of clusters(run, text)) {
    const [single] = cluster.glyphs
    if (cluster.glyphs.length === 1 && single && font.use(single.id, cluster.text)) {
      draw(single)
      continue
    }
    show()
    // pdf-lib's operator arguments leave out dictionaries, which it writes all the same.
    const properties = context.obj({ ActualText: PDFHexString.fromText(cluster.text) }) as unknown as PDFName
    operators.push(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), properties]))
    drawMarked(font, cluster, draw)
    show()
    operators.push(endMarkedContent())
  }
  show()
  if (rise !== 0) operators.push(setTextRise(0))
  return operators
}

/**
 * A cluster whose text ActualText gives. A reader puts that text on the baseline of the span's
 * first glyph and across to the end of its last (poppler), so the glyphs on the baseline are drawn
 * first and the last one is given character spacing up to the cluster's end: a raised mark would
 * otherwise lift the text off its line, and a span shorter than its cluster reads as a word break.
 * A glyph that is some character's own (a mark, a letter) is also mapped to it in /ToUnicode, for
 * readers that ignore ActualText.
 */
function drawMarked(font: CidFont, cluster: Cluster, draw: (glyph: PlacedGlyph, spacing?: number) => void): void {
  const own = new Map([...cluster.text].map((char) => [font.face.hb.nominalGlyph(char.codePointAt(0)!), char]))
  const glyphs = [...cluster.glyphs].sort((a, b) => Number(a.dy !== 0) - Number(b.dy !== 0))
  glyphs.forEach((glyph, i) => {
    font.use(glyph.id, font.hasText(glyph.id) ? '' : (own.get(glyph.id) ?? ''))
    const end = glyph.x + (font.width(glyph.id) * font.face.unitsPerEm) / 1000
    draw(glyph, i === glyphs.length - 1 && cluster.end - end > 0.01 ? cluster.end - end : 0)
  })
}

const round = (n: number) => Math.round(n * 1000) / 1000
