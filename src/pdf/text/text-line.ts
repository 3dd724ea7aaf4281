// A line of text as it is drawn: split into runs by face (font-fallback.ts) and by direction (the
// Unicode bidi algorithm, bidi-js: an Arabic name followed by an e-mail address reads right to left,
// then left to right), the runs put in visual order, each shaped by HarfBuzz (shaping.ts). Measuring
// and drawing both read this, so a value is fitted with the advances it is drawn with.
import { createRequire } from 'node:module'
import { faceRuns } from './font-fallback.ts'
import type { Typeface } from './fonts.ts'
import { type ShapedGlyph, type ShapingFace, shapeRun } from './shaping.ts'

/** One face, one direction; `glyphs` left to right, their clusters indexing the line's text. */
export interface GlyphRun {
  face: ShapingFace
  glyphs: ShapedGlyph[]
  /** The run's part of the line's text: `start` to `end`, in UTF-16 code units. */
  start: number
  end: number
  rtl: boolean
  /** Advance width, in ems (points at 1 pt). */
  width: number
}

export interface ShapedLine {
  text: string
  /** The paragraph reads right to left (UAX #9 P2: its first strong character is Arabic or Hebrew). */
  rtl: boolean
  /** Left to right, as drawn. */
  runs: GlyphRun[]
  /** Points at 1 pt. */
  width: number
}

// bidi-js is CommonJS and its types declare an ES default export, which TypeScript's Node module
// resolution then sees as the module object: required as what it is.
const bidiFactory: typeof import('bidi-js').default = createRequire(import.meta.url)('bidi-js')
const bidi = bidiFactory()

// Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko… and their presentation forms):
// a line without any has every character at level 0, and the bidi algorithm is skipped.
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u

interface LevelRun {
  face: ShapingFace
  start: number
  end: number
  level: number
}

/** Face runs cut where the bidi level changes, and the paragraph's level. */
function levelRuns(typeface: Typeface, text: string): { runs: LevelRun[]; level: number } {
  const runs = faceRuns(typeface, text)
  if (!RIGHT_TO_LEFT.test(text)) return { runs: runs.map((run) => ({ ...run, level: 0 })), level: 0 }
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text)
  const out: LevelRun[] = []
  for (const run of runs) {
    let start = run.start
    for (let i = run.start + 1; i <= run.end; i++) {
      if (i === run.end || levels[i] !== levels[start]) {
        out.push({ face: run.face, start, end: i, level: levels[start]! })
        start = i
      }
    }
  }
  return { runs: out, level: paragraphs[0]?.level ?? 0 }
}

/** UAX #9 rule L2: from the highest level down to the lowest odd one, reverse each sequence at or above it. */
function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  const out = [...runs]
  const levels = runs.map((run) => run.level)
  const lowestOdd = Math.min(...levels.filter((level) => level % 2 === 1))
  for (let level = Math.max(...levels); level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level < level) {
        i++
        continue
      }
      let j = i
      while (j < out.length && out[j]!.level >= level) j++
      out.splice(i, j - i, ...out.slice(i, j).reverse())
      i = j
    }
  }
  return out
}

function layout(typeface: Typeface, text: string): ShapedLine {
  let width = 0
  const { runs: logical, level: paragraph } = levelRuns(typeface, text)
  const runs = visualOrder(logical).map(({ face, start, end, level }): GlyphRun => {
    const rtl = level % 2 === 1
    const glyphs = shapeRun(face, text, start, end, rtl)
    const runWidth = glyphs.reduce((sum, glyph) => sum + glyph.advance, 0) / face.unitsPerEm
    width += runWidth
    return { face, glyphs, start, end, rtl, width: runWidth }
  })
  return { text, rtl: paragraph % 2 === 1, runs, width }
}

// An audit trail measures the same words again and again (e-mails, user agents, event types) and
// draws them once more: a line is laid out once per process and style. Bounded, cleared when full;
// long lines are not kept.
const CACHE_SIZE = 10_000
const lines = new WeakMap<Typeface, Map<string, ShapedLine>>()

/** `text` (drawable: fonts.ts drawableText) laid out on one line in the typeface's faces. */
export function shapeLine(typeface: Typeface, text: string): ShapedLine {
  let cache = lines.get(typeface)
  if (!cache) {
    cache = new Map()
    lines.set(typeface, cache)
  }
  let line = cache.get(text)
  if (!line) {
    line = layout(typeface, text)
    if (cache.size >= CACHE_SIZE) cache.clear()
    if (text.length <= 200) cache.set(text, line)
  }
  return line
}
