// The fonts drawn into final and audit PDFs (every script prints). Names and values
// may be in any script, so each style is a list of faces from Debian's font packages
// (scripts/install.sh): DejaVu first, for Latin, Greek, Cyrillic and Hebrew as they always looked,
// then a Noto face per script DejaVu lacks or draws poorly: Arabic, Devanagari and Thai from
// fonts-noto-ui-core (the UI cut keeps their tall marks inside Latin line heights, as a box needs),
// Chinese, Japanese and Korean from fonts-noto-cjk. A run of text takes the first face that has its
// characters (font-fallback.ts); a character no face has prints as MISSING_GLYPH.
//
// Faces are read and parsed once per process, each when a text first needs it (a CJK collection is
// 19 MB), and embedded per document as subsets of the glyphs drawn (cid-font.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PDFDocument } from 'pdf-lib'
import { loadShapingFace, type ShapingFace } from './shaping.ts'

/** Where Debian's font packages install their files. */
export const DEFAULT_FONT_DIR = '/usr/share/fonts'

export type FontName = 'sans' | 'bold' | 'mono'

/** Drawn instead of a character no face has a glyph for. */
export const MISSING_GLYPH = '?'

export class FontFileMissingError extends Error {
  override readonly name = 'FontFileMissingError'
}

interface FaceFile {
  path: string
  package: string
}

const dejavu = (file: string): FaceFile => ({ path: `truetype/dejavu/${file}`, package: 'fonts-dejavu-core' })
const notoUi = (file: string): FaceFile => ({ path: `truetype/noto/${file}`, package: 'fonts-noto-ui-core' })
const notoCjk = (file: string): FaceFile => ({ path: `opentype/noto/${file}`, package: 'fonts-noto-cjk' })

/** The faces a script's characters are drawn with before any other, when the face has them. */
interface ScriptFace {
  script: RegExp
  file: FaceFile
  /** The face's index in a collection, which may depend on the whole text. */
  index?: (text: string) => number
}

// Han characters are shared by Chinese, Japanese and Korean but drawn differently in each; the
// collection holds a face per language (0 Japanese, 1 Korean, 2 Simplified Chinese). Nothing tells
// a name's language but its other characters: kana say Japanese, Hangul Korean, else Chinese.
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u
const HANGUL = /\p{Script=Hangul}/u
const cjkIndex = (text: string) => (KANA.test(text) ? 0 : HANGUL.test(text) ? 1 : 2)

function scriptFaces(weight: 'Regular' | 'Bold'): ScriptFace[] {
  return [
    // DejaVu has Arabic letters too, but not all of them: one face for the whole script keeps a
    // word's letters joined (joining does not cross faces).
    { script: /\p{Script=Arabic}/u, file: notoUi(`NotoSansArabicUI-${weight}.ttf`) },
    { script: /\p{Script=Devanagari}/u, file: notoUi(`NotoSansDevanagariUI-${weight}.ttf`) },
    { script: /\p{Script=Thai}/u, file: notoUi(`NotoSansThaiUI-${weight}.ttf`) },
    {
      script: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u,
      file: notoCjk(`NotoSansCJK-${weight}.ttc`),
      index: cjkIndex,
    },
  ]
}

const STYLES: Record<FontName, { primary: FaceFile[]; scripts: ScriptFace[] }> = {
  sans: { primary: [dejavu('DejaVuSans.ttf')], scripts: scriptFaces('Regular') },
  bold: { primary: [dejavu('DejaVuSans-Bold.ttf')], scripts: scriptFaces('Bold') },
  // DejaVu Sans Mono has no Hebrew: DejaVu Sans draws what the mono face lacks.
  mono: {
    primary: [dejavu('DejaVuSansMono.ttf'), dejavu('DejaVuSans.ttf')],
    scripts: scriptFaces('Regular'),
  },
}

const files = new Map<string, Uint8Array>()

/** A font file's bytes, read once per path and process. */
export function readFontFile(file: FaceFile, dir = DEFAULT_FONT_DIR): Uint8Array {
  const path = join(dir, file.path)
  let bytes = files.get(path)
  if (!bytes) {
    try {
      bytes = new Uint8Array(readFileSync(path))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      throw new FontFileMissingError(
        `font file ${path} is missing: install Debian's ${file.package} (scripts/install.sh) or point the font directory at a copy`,
      )
    }
    files.set(path, bytes)
  }
  return bytes
}

const faces = new Map<string, ShapingFace>()

function loadFace(file: FaceFile, dir: string, index = 0): ShapingFace {
  const key = `${join(dir, file.path)}#${index}`
  let face = faces.get(key)
  if (!face) {
    face = loadShapingFace(readFontFile(file, dir), index)
    faces.set(key, face)
  }
  return face
}

/** A style's faces, in the order a character tries them. */
export interface Typeface {
  readonly name: FontName
  /** Faces tried first for every character (DejaVu), loaded with the typeface. */
  readonly primary: ShapingFace[]
  /** The face for `char`'s script in `text`, if a face is kept for it (loaded at first use). */
  scriptFace(char: string, text: string): ShapingFace | undefined
  /** Every face, in order, for a character neither DejaVu nor its script's face has. */
  allFaces(text: string): ShapingFace[]
}

const typefaces = new Map<string, Typeface>()

function optional(load: () => ShapingFace): ShapingFace[] {
  try {
    return [load()]
  } catch (error) {
    if (error instanceof FontFileMissingError) return []
    throw error
  }
}

export function typeface(name: FontName, dir = DEFAULT_FONT_DIR): Typeface {
  const key = `${name}\n${dir}`
  let found = typefaces.get(key)
  if (!found) {
    const style = STYLES[name]
    const primary = style.primary.map((file) => loadFace(file, dir))
    const load = (slot: ScriptFace, text: string) => loadFace(slot.file, dir, slot.index?.(text) ?? 0)
    found = {
      name,
      primary,
      scriptFace(char, text) {
        const slot = style.scripts.find((s) => s.script.test(char))
        return slot && load(slot, text)
      },
      // Only a chance that they have the character: a script face whose package is not installed
      // is skipped here (its own script's characters still fail loudly in scriptFace).
      allFaces: (text) => [...primary, ...style.scripts.flatMap((slot) => optional(() => load(slot, text)))],
    }
    typefaces.set(key, found)
  }
  return found
}

/**
 * Reads and parses every face of every style, so no document pays for it: for the finalizer child
 * when it starts. The CJK faces are the larger part (see the font figures in docs/api.md, Completion).
 */
export function preloadFonts(dir?: string): void {
  for (const name of Object.keys(STYLES) as FontName[]) {
    const face = typeface(name, dir)
    for (const text of ['', 'か', '한']) face.allFaces(text)
  }
}

/** A style's faces as used by one PDF document: what its text is drawn and embedded with. */
export interface TextFont {
  readonly typeface: Typeface
  readonly doc: PDFDocument
  /** Characters drawn as MISSING_GLYPH in this document because no face has them. */
  readonly missing: Set<string>
}

/** The style's faces for `doc`; call once per document and style, then share the TextFont. */
export async function embedFont(doc: PDFDocument, name: FontName, dir?: string): Promise<TextFont> {
  return { typeface: typeface(name, dir), doc, missing: new Set() }
}

/** Whether some face of the style draws `char` (in `text`, which picks a CJK face). */
function drawable(font: TextFont, char: string, text: string): boolean {
  const codePoint = char.codePointAt(0)!
  const { typeface: face } = font
  if (face.primary.some((f) => f.coverage.has(codePoint))) return true
  if (face.scriptFace(char, text)?.coverage.has(codePoint)) return true
  return face.allFaces(text).some((f) => f.coverage.has(codePoint))
}

// Characters that steer shaping (ZWJ, ZWNJ: a Devanagari half form, a Persian non-joining letter)
// are kept; other format characters go, bidi overrides first ("evil\u202Egnp.exe" would show
// reversed): the bidi algorithm orders the text itself (text-line.ts).
const SHAPING_CONTROLS = /[\u200C\u200D]/u

/**
 * The text as it can be drawn on one line: composed (NFC, so "Ż" typed as Z + dot is one glyph),
 * controls and line breaks as spaces, invisible format characters dropped but the joiners shaping
 * needs, and every character no face has as MISSING_GLYPH (recorded in `font.missing`), so drawing
 * never throws and never shows a blank .notdef box.
 */
export function drawableText(font: TextFont, text: string): string {
  const composed = text.normalize('NFC')
  let out = ''
  for (const char of composed) {
    if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(char)) out += ' '
    else if (/\p{Cf}/u.test(char) && !SHAPING_CONTROLS.test(char)) continue
    else if (drawable(font, char, composed)) out += char
    else {
      font.missing.add(char)
      out += MISSING_GLYPH
    }
  }
  return out
}
