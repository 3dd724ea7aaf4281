// Per-character font fallback: a line of text split into runs, each drawn by one face. A character
// takes its script's own face when one is kept for it (fonts.ts), else the first face of the style
// that has it; spaces, punctuation, digits and combining marks stay in the run before them when its
// face has them, so a name's space or a letter's accent does not switch faces mid-word.
import type { Typeface } from './fonts.ts'
import type { ShapingFace } from './shaping.ts'

/** `text.slice(start, end)` (UTF-16 indexes) is drawn with `face`. */
export interface FaceRun {
  face: ShapingFace
  start: number
  end: number
}

// Unicode's Common script (spaces, punctuation, digits, symbols) and Inherited (combining marks,
// ZWJ and ZWNJ): characters that belong to the text around them.
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u

function faceFor(typeface: Typeface, char: string, text: string, previous?: ShapingFace): ShapingFace {
  const codePoint = char.codePointAt(0)!
  const has = (face: ShapingFace) => face.coverage.has(codePoint)
  if (previous && has(previous) && NEUTRAL.test(char)) return previous
  const own = typeface.scriptFace(char, text)
  if (own && has(own)) return own
  // A character no face has was made MISSING_GLYPH by drawableText; the first face then shows
  // its .notdef rather than failing.
  return typeface.primary.find(has) ?? typeface.allFaces(text).find(has) ?? typeface.primary[0]!
}

/** The runs of `text`, in logical order, each as long as one face draws it. */
export function faceRuns(typeface: Typeface, text: string): FaceRun[] {
  const runs: FaceRun[] = []
  let index = 0
  for (const char of text) {
    const last = runs.at(-1)
    const face = faceFor(typeface, char, text, last?.face)
    if (last && last.face === face) last.end = index + char.length
    else runs.push({ face, start: index, end: index + char.length })
    index += char.length
  }
  return runs
}
