// OpenType shaping with HarfBuzz (harfbuzzjs, its maintained WASM build): the glyphs a run of text
// is drawn with and where, as a real text engine would draw them: Arabic letters joined, lam-alef as
// one glyph, Devanagari conjuncts and reordered vowel signs, Thai marks stacked, Latin kerned.
// A face is parsed once per process (fonts.ts keeps them); shaping is synchronous and cheap.
import * as hb from 'harfbuzzjs'

/** One glyph of a shaped run, in font units of its face; `cluster` indexes the shaped string. */
export interface ShapedGlyph {
  id: number
  cluster: number
  advance: number
  dx: number
  dy: number
}

export interface ShapingFace {
  /** The file the face comes from and its index in a collection, for embedding (font-subset.ts). */
  readonly bytes: Uint8Array
  readonly index: number
  readonly postscriptName: string
  readonly unitsPerEm: number
  /** hhea (or OS/2 typo) ascent and descent, in font units; descent is negative. */
  readonly ascent: number
  readonly descent: number
  /** The head table's box around every glyph, and the capital height (OS/2), in font units. */
  readonly bbox: [number, number, number, number]
  readonly capHeight: number
  readonly hb: hb.Font
  /** The code points the face maps to a glyph. */
  readonly coverage: Set<number>
  /** PostScript outlines (CFF): embedded as CIDFontType0 rather than CIDFontType2. */
  readonly cff: boolean
}

// Ligatures that only join letters for looks ("fi", "ffl" in DejaVu) are off: text extraction
// would read them as U+FB01… and a submission id with "ff" could not be found by searching the PDF.
// Required ligatures (rlig: Arabic lam-alef) and every script's own shaping features stay on.
const FEATURES = [new hb.Feature('liga', 0), new hb.Feature('clig', 0), new hb.Feature('dlig', 0)]

export function loadShapingFace(bytes: Uint8Array, index = 0): ShapingFace {
  const face = new hb.Face(new hb.Blob(bytes), index)
  const font = new hb.Font(face)
  const { ascender, descender } = font.hExtents()
  const name = face.getName(6, 'en') || `face${index}`
  const head = face.referenceTable('head')
  const view =
    head && head.length >= 44 ? new DataView(head.buffer, head.byteOffset, head.byteLength) : undefined
  return {
    bytes,
    index,
    postscriptName: name.replace(/[^!-~]|[[\]()<>{}/%#]/g, ''),
    unitsPerEm: face.upem,
    ascent: ascender,
    descent: descender,
    bbox: view
      ? [view.getInt16(36), view.getInt16(38), view.getInt16(40), view.getInt16(42)]
      : [0, descender, face.upem, ascender],
    capHeight: font.getMetricPositionWithFallback(hb.MetricsTag.CAP_HEIGHT) || ascender,
    hb: font,
    coverage: new Set(face.collectUnicodes()),
    cff: face.referenceTable('CFF ') !== undefined,
  }
}

// One buffer for the process: shaping is synchronous, so no two runs share it at once.
let buffer: hb.Buffer | undefined

/**
 * The glyphs of `text.slice(start, end)` in `face`, in visual (left-to-right) order, the rest of
 * `text` given as context (an Arabic letter joins to what stands beside it). Clusters index `text`
 * in UTF-16 code units; a cluster is a character with its combining marks, or what the font merged
 * (a ligature, a syllable whose vowel sign is drawn before its consonant).
 */
export function shapeRun(
  face: ShapingFace,
  text: string,
  start: number,
  end: number,
  rtl: boolean,
): ShapedGlyph[] {
  buffer ??= new hb.Buffer()
  buffer.reset()
  // A letter and its marks form one cluster (HarfBuzz's default): drawn with the marks raised,
  // the cluster is marked with its text as a whole (draw-text.ts), on the letter's baseline.
  buffer.setClusterLevel(hb.ClusterLevel.MONOTONE_GRAPHEMES)
  buffer.addText(text, start, end - start)
  buffer.guessSegmentProperties()
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR)
  hb.shape(face.hb, buffer, FEATURES)
  return buffer.getGlyphInfosAndPositions().map((g) => ({
    id: g.codepoint,
    cluster: g.cluster,
    advance: g.xAdvance ?? 0,
    dx: g.xOffset ?? 0,
    dy: g.yOffset ?? 0,
  }))
}

/** The glyph's ink from its baseline, in font units: top above (positive), bottom below. */
export function glyphInk(face: ShapingFace, glyph: number): { top: number; bottom: number } {
  const extents = face.hb.glyphExtents(glyph)
  if (!extents) return { top: 0, bottom: 0 }
  return { top: extents.yBearing, bottom: extents.yBearing + extents.height }
}
