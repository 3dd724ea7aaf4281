// Measuring text in a document's fonts: the largest size that fits a box, truncation with an
// ellipsis, and word wrapping. Widths are the shaped advances the text is drawn with (text-line.ts:
// fallback faces, bidi, HarfBuzz). Callers pass text already made drawable (fonts.ts drawableText).
import type { TextFont } from './fonts.ts'
import { glyphInk } from './shaping.ts'
import { shapeLine } from './text-line.ts'

export const ELLIPSIS = '…'

// issue #21 item 4: `width / textWidth`, multiplied back, can come out a hair over `width` in
// floating point (page width 595.276: "Corpus check 42…" cut on real A4 files). The fitted size is
// taken a relative hair smaller, and widths are compared with a tolerance a million times below
// what a viewer can show, so a value that fits is never cut.
const SIZE_MARGIN = 1e-9
const WIDTH_TOLERANCE = 1e-6

function fits(font: TextFont, text: string, size: number, maxWidth: number): boolean {
  return widthAt(font, text, size) <= maxWidth + WIDTH_TOLERANCE
}

/** The width of `text` at 1 pt (shaped lines are cached per style: text-line.ts). */
export function unitWidth(font: TextFont, text: string): number {
  return shapeLine(font.typeface, text).width
}

export function widthAt(font: TextFont, text: string, size: number): number {
  return unitWidth(font, text) * size
}

export interface VerticalExtent {
  /** Above the baseline, per point of size. */
  ascent: number
  /** Below the baseline, per point of size: zero or negative. */
  descent: number
}

/** The first face's (DejaVu's) ascent and descent (hhea), per point of size: lines are spaced by it. */
export function verticalMetrics(font: TextFont): VerticalExtent {
  const [face] = font.typeface.primary
  const { ascent, descent, unitsPerEm } = face!
  return { ascent: ascent / unitsPerEm, descent: descent / unitsPerEm }
}

/**
 * The font's ascent and descent, widened to the ink of `text`'s glyphs in whatever face draws them:
 * accents on capitals ("Ż", "Å") and Thai or Devanagari marks rise above DejaVu's ascent, and a
 * value fitted to the box by the ascent alone would spill over its top edge.
 */
export function verticalExtent(font: TextFont, text: string): VerticalExtent {
  let { ascent, descent } = verticalMetrics(font)
  for (const run of shapeLine(font.typeface, text).runs) {
    for (const glyph of run.glyphs) {
      const ink = glyphInk(run.face, glyph.id)
      if (ink.top === ink.bottom) continue
      ascent = Math.max(ascent, (ink.top + glyph.dy) / run.face.unitsPerEm)
      descent = Math.min(descent, (ink.bottom + glyph.dy) / run.face.unitsPerEm)
    }
  }
  return { ascent, descent }
}

/**
 * A character with the combining marks that follow it: enough to never cut an accent from its
 * letter in drawable text. Intl.Segmenter would cost ~20 µs per grapheme.
 */
function splitGraphemes(text: string): string[] {
  return text.match(/\P{M}\p{M}*|\p{M}+/gu) ?? []
}

/**
 * The longest start of `text` that, followed by an ellipsis, fits `maxWidth`; whole graphemes only,
 * so an accent is never cut from its letter. The text itself when it fits.
 */
export function truncate(font: TextFont, text: string, size: number, maxWidth: number): string {
  if (fits(font, text, size, maxWidth)) return text
  const parts = splitGraphemes(text)
  let [low, high] = [0, parts.length - 1]
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    const candidate = parts.slice(0, mid).join('').trimEnd() + ELLIPSIS
    if (fits(font, candidate, size, maxWidth)) low = mid
    else high = mid - 1
  }
  const best = parts.slice(0, low).join('').trimEnd() + ELLIPSIS
  return fits(font, best, size, maxWidth) ? best : ''
}

export interface FittedLine {
  text: string
  size: number
}

/**
 * One line in the largest size that fits `width` × `height` (`height` holding `extent`), never
 * smaller than `minSize` for width's sake (the text is then truncated with an ellipsis); a box too
 * low for `minSize` gets the size its height allows.
 */
export function fitLine(
  font: TextFont,
  text: string,
  width: number,
  height: number,
  extent: VerticalExtent,
  { minSize = 4, maxSize = Number.POSITIVE_INFINITY } = {},
): FittedLine {
  const byHeight = Math.min(maxSize, height / (extent.ascent - extent.descent))
  const textWidth = unitWidth(font, text)
  const byWidth = textWidth > 0 ? (width / textWidth) * (1 - SIZE_MARGIN) : Number.POSITIVE_INFINITY
  const size = Math.min(byHeight, Math.max(minSize, byWidth))
  return { text: truncate(font, text, size, width), size }
}

interface Piece {
  text: string
  width: number
}

// Shaping cost grows with length: a word this long is measured grapheme by grapheme instead (a
// user agent of 40 000 characters otherwise takes seconds).
const LONG_WORD = 64

/**
 * A word cut between graphemes so each piece fits `maxWidth` (one piece when it fits). Graphemes
 * are measured one by one (few distinct ones, all cached); kerning, which only tightens pairs, is
 * left out.
 */
function breakWord(font: TextFont, word: string, size: number, maxWidth: number): Piece[] {
  const pieces: Piece[] = []
  let piece: Piece = { text: '', width: 0 }
  for (const grapheme of splitGraphemes(word)) {
    const width = widthAt(font, grapheme, size)
    if (piece.text && piece.width + width > maxWidth) {
      pieces.push(piece)
      piece = { text: '', width: 0 }
    }
    piece.text += grapheme
    piece.width += width
  }
  return piece.text ? [...pieces, piece] : pieces
}

function measureWord(font: TextFont, word: string, size: number, maxWidth: number): Piece[] {
  if (word.length > LONG_WORD) return breakWord(font, word, size, maxWidth)
  const width = widthAt(font, word, size)
  return width <= maxWidth ? [{ text: word, width }] : breakWord(font, word, size, maxWidth)
}

/**
 * Lines of at most `maxWidth`, broken at spaces, and inside words only where a word alone is too
 * long (a 64-hex hash, a user agent token, an e-mail address). Widths are summed word by word:
 * kerning across a space, ignored, is a fraction of a point.
 */
export function wrap(font: TextFont, text: string, size: number, maxWidth: number): string[] {
  const space = widthAt(font, ' ', size)
  const lines: string[] = []
  let line: Piece | undefined
  for (const word of text.split(' ').filter(Boolean)) {
    const pieces = measureWord(font, word, size, maxWidth)
    const [first] = pieces
    if (line && pieces.length === 1 && first && line.width + space + first.width <= maxWidth) {
      line = { text: `${line.text} ${first.text}`, width: line.width + space + first.width }
      continue
    }
    if (line) lines.push(line.text)
    lines.push(...pieces.slice(0, -1).map((p) => p.text))
    line = pieces.at(-1)
  }
  return line ? [...lines, line.text] : lines.length > 0 ? lines : ['']
}
