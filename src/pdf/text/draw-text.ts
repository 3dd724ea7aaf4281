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
  concatTransformationMatrix,
  drawObject,
  endMarkedContent,
  endText,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  type PDFPageLeaf,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
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
    operators.push(...shownRun(page.doc, embedded, run, line.text, options.size))
    x += run.width * options.size
  }
  operators.push(endText(), popGraphicsState())
  page.pushOperators(...operators)
}

const forms = new WeakMap<PDFDocument, Map<string, PDFRef>>()

/**
 * Draws `text` like drawText, as a form XObject made once per document, font, text, size and
 * colour: a footer's fixed part, the same on every page, is then written once in the file instead
 * of once per page (100 pages: 150 KB less content to write, read back and graft).
 */
export function drawTextAsForm(page: PDFPage, font: TextFont, text: string, options: DrawTextOptions): void {
  const doc = font.doc
  let made = forms.get(doc)
  if (!made) {
    made = new Map()
    forms.set(doc, made)
  }
  const { size, color } = options
  const key = JSON.stringify([text, size, color])
  let ref = made.get(key)
  if (!ref) {
    ref = textForm(doc, font, text, size, color)
    made.set(key, ref)
  }
  const name = page.node.newXObject('ParaphText', ref)
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(1, 0, 0, 1, options.x, options.y),
    drawObject(name),
    popGraphicsState(),
  )
}

/** The line drawn from the origin in a form of its own, its fonts in its own resources. */
function textForm(doc: PDFDocument, font: TextFont, text: string, size: number, color: Color): PDFRef {
  const line = shapeLine(font.typeface, text)
  const fonts = new Map<PDFRef, PDFName>()
  const operators = [setFillingColor(color), beginText()]
  let x = 0
  for (const run of line.runs) {
    const embedded = cidFontOf(doc, run.face)
    let name = fonts.get(embedded.ref)
    if (!name) {
      name = PDFName.of(`F${fonts.size + 1}`)
      fonts.set(embedded.ref, name)
    }
    operators.push(setFontAndSize(name, size), setTextMatrix(1, 0, 0, 1, x, 0))
    operators.push(...shownRun(doc, embedded, run, line.text, size))
    x += run.width * size
  }
  operators.push(endText())
  // Generous bounds: a form clips to its /BBox, and marks may reach past the advance widths.
  const bbox = [-2 * size, -2 * size, x + 2 * size, 3 * size]
  const resources = {
    Font: Object.fromEntries([...fonts].map(([ref, name]) => [name.asString().slice(1), ref])),
  }
  return doc.context.register(doc.context.formXObject(operators, { BBox: bbox, Resources: resources }))
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

/** A glyph to show, and the ActualText span it opens or closes. */
interface Item {
  glyph: PlacedGlyph
  opens?: string
  closes?: boolean
}

/** A cluster's glyphs in drawing order, and whether /ToUnicode alone cannot give its text. */
interface Drawn {
  cluster: Cluster
  glyphs: PlacedGlyph[]
  marked: boolean
  /** From its first drawn glyph's origin to its last one's /W end: what a reader measures. */
  left: number
  right: number
}

// poppler reads a gap of a tenth of the size between two glyphs as a word break; HarfBuzz leaves
// such gaps inside words (Noto's Arabic kerning moves a final ر away from the next letter).
const GAP = 0.05

/**
 * The run's glyphs in drawing order, with ActualText spans where /ToUnicode is not enough: a
 * cluster of several glyphs or a glyph already standing for other text, and clusters a gap
 * separates, joined in one span so that it is not read as a space. A reader puts a span's text on
 * the baseline of its first glyph (poppler), so glyphs on the baseline are drawn first and raised
 * marks after. A glyph that is some character's own (a mark, a letter) is still mapped to it, for
 * readers that ignore ActualText.
 */
function items(font: CidFont, run: GlyphRun, text: string): Item[] {
  const simple = simpleItems(font, run, text)
  if (simple) return simple
  const end = (glyph: PlacedGlyph) => glyph.x + (font.width(glyph.id) * run.face.unitsPerEm) / 1000
  const drawn = clusters(run, text).map((cluster): Drawn => {
    const [single] = cluster.glyphs
    const marked = !(cluster.glyphs.length === 1 && single && font.use(single.id, cluster.text))
    const glyphs = [...cluster.glyphs].sort((a, b) => Number(a.dy !== 0) - Number(b.dy !== 0))
    if (marked) {
      const own = new Map(
        [...cluster.text].map((char) => [font.face.hb.nominalGlyph(char.codePointAt(0)!), char]),
      )
      for (const glyph of glyphs) font.use(glyph.id, font.hasText(glyph.id) ? '' : (own.get(glyph.id) ?? ''))
    }
    return { cluster, glyphs, marked, left: glyphs[0]!.x, right: end(glyphs.at(-1)!) }
  })
  const groups: Drawn[][] = []
  for (const cluster of drawn) {
    const group = groups.at(-1)
    if (group && cluster.left - group.at(-1)!.right > GAP * run.face.unitsPerEm) group.push(cluster)
    else groups.push([cluster])
  }
  return groups.flatMap((group) => {
    const glyphs = group.flatMap((cluster) => cluster.glyphs)
    if (group.length === 1 && !group[0]!.marked) return glyphs.map((glyph) => ({ glyph }))
    const spanText = group.map((cluster) => cluster.cluster.text).join('')
    return glyphs.map((glyph, i) => ({
      glyph,
      opens: i === 0 ? spanText : undefined,
      closes: i === glyphs.length - 1,
    }))
  })
}

const shownRuns = new WeakMap<CidFont, WeakMap<GlyphRun, Map<number, PDFOperator[]>>>()

/**
 * runOperators, made once per font, run and size: a footer's fixed part is the same run (shaping
 * is cached by text) on every page, and the operators only read. 100 pages: a third of footing.
 */
function shownRun(doc: PDFDocument, font: CidFont, run: GlyphRun, text: string, size: number): PDFOperator[] {
  let runs = shownRuns.get(font)
  if (!runs) {
    runs = new WeakMap()
    shownRuns.set(font, runs)
  }
  let sizes = runs.get(run)
  if (!sizes) {
    sizes = new Map()
    runs.set(run, sizes)
  }
  let operators = sizes.get(size)
  if (!operators) {
    operators = runOperators(doc, font, run, text, size)
    sizes.set(size, operators)
  }
  return operators
}

/**
 * items() of the common run — left to right, one glyph per cluster in text order, none raised, each
 * glyph the first to stand for its text, no gap between them — without building clusters and
 * groups (most of the audit trail's and the page numbers' text). Undefined for any other run, which
 * items() then lays out in full; `font.use` gives the same answer when asked again.
 */
function simpleItems(font: CidFont, run: GlyphRun, text: string): Item[] | undefined {
  if (run.rtl) return undefined
  const { glyphs } = run
  const unitsPerEm = run.face.unitsPerEm
  const gap = GAP * unitsPerEm
  const out: Item[] = []
  let pen = 0
  let right = 0
  for (let i = 0; i < glyphs.length; i++) {
    const glyph = glyphs[i]!
    const next = glyphs[i + 1]
    if (glyph.dy !== 0 || (next !== undefined && next.cluster <= glyph.cluster)) return undefined
    const x = pen + glyph.dx
    if (i > 0 && x - right > gap) return undefined
    if (!font.use(glyph.id, text.slice(glyph.cluster, next?.cluster ?? run.end))) return undefined
    out.push({ glyph: { id: glyph.id, x, dy: 0 } })
    right = x + (font.width(glyph.id) * unitsPerEm) / 1000
    pen += glyph.advance
  }
  return out
}

/** The operators that show the run from its start, each glyph where HarfBuzz placed it. */
function runOperators(
  doc: PDFDocument,
  font: CidFont,
  run: GlyphRun,
  text: string,
  size: number,
): PDFOperator[] {
  const { context } = doc
  const unitsPerEm = run.face.unitsPerEm
  const operators: PDFOperator[] = []
  let shown: Array<PDFHexString | number> = []
  const show = () => {
    if (shown.length > 0)
      operators.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [context.obj(shown)]))
    shown = []
  }
  // The PDF's text position in font units from the run's start, and the text rise.
  let at = 0
  let rise = 0
  for (const { glyph, opens, closes } of items(font, run, text)) {
    if (opens !== undefined) {
      show()
      // pdf-lib's operator arguments leave out dictionaries, which it writes all the same.
      const properties = context.obj({ ActualText: PDFHexString.fromText(opens) }) as unknown as PDFName
      operators.push(
        PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), properties]),
      )
    }
    if (glyph.dy !== rise) {
      show()
      rise = glyph.dy
      operators.push(setTextRise(round((rise * size) / unitsPerEm)))
    }
    // TJ numbers are thousandths of the font size, subtracted from the position.
    if (Math.abs(glyph.x - at) > 0.01) shown.push(round((-(glyph.x - at) * 1000) / unitsPerEm))
    shown.push(PDFHexString.of(glyph.id.toString(16).padStart(4, '0')))
    at = glyph.x + (font.width(glyph.id) * unitsPerEm) / 1000
    if (closes) {
      show()
      operators.push(endMarkedContent())
    }
  }
  show()
  if (rise !== 0) operators.push(setTextRise(0))
  return operators
}

const round = (n: number) => Math.round(n * 1000) / 1000
