// The fonts drawn into final and audit PDFs. pdf-lib's standard 14 fonts encode WinAnsi only and
// throw on "ł" or Cyrillic, while names and values may be in any script: we embed DejaVu (Debian's
// fonts-dejavu-core, installed by scripts/install.sh) as a subset, so only the glyphs used are
// written (a 1-page stamp adds ~10 KB, not the 750 KB file).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fontkit from '@pdf-lib/fontkit'
import type { PDFDocument, PDFFont } from 'pdf-lib'

export const DEFAULT_FONT_DIR = '/usr/share/fonts/truetype/dejavu'

export const FONT_FILES = {
  sans: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  mono: 'DejaVuSansMono.ttf',
} as const
export type FontName = keyof typeof FONT_FILES

/** Drawn instead of a character the font has no glyph for (DejaVu has no CJK, for one). */
export const MISSING_GLYPH = '?'

export class FontFileMissingError extends Error {
  override readonly name = 'FontFileMissingError'
}

const files = new Map<string, Promise<Uint8Array>>()

/** The font's bytes, read once per path and process: reading 750 KB per PDF would dominate. */
export function readFontFile(name: FontName, dir = DEFAULT_FONT_DIR): Promise<Uint8Array> {
  const path = join(dir, FONT_FILES[name])
  let bytes = files.get(path)
  if (!bytes) {
    bytes = readFile(path).then(
      (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
      (error: NodeJS.ErrnoException) => {
        files.delete(path)
        if (error.code !== 'ENOENT') throw error
        throw new FontFileMissingError(
          `font file ${path} is missing: install Debian's fonts-dejavu-core (scripts/install.sh) or point the font directory at a copy of DejaVu`,
        )
      },
    )
    files.set(path, bytes)
  }
  return bytes
}

// pdf-lib asks the registered fontkit to parse the font on every embedFont. Handing back the Font
// already parsed for the same bytes saves its table parsing and shaping warm-up, measured at
// 15–60 ms per document. fontkit only caches what it read, and a subset is encoded synchronously
// (in one tick) from its own glyph list, with one catch: fontkit caches each glyph with the
// characters it was first asked for, and encoding a subset fetches the parts of composite glyphs
// ("é" is "e" + acute) with none, so a later document would map "e" to no text (pdftotext and
// copy-paste lose it; ToUnicode, ISO 32000-1 §9.10.3). Fetching every mapped glyph by its
// character first (20–30 ms per face, once per process) makes the cache hold the right characters.
const parsed = new WeakMap<Uint8Array, fontkit.Font>()
const cachingFontkit = {
  create(bytes: Uint8Array, postscriptName?: string): fontkit.Font {
    let font = parsed.get(bytes)
    if (!font) {
      font = fontkit.create(bytes, postscriptName)
      for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint)
      memoizeLayout(font)
      parsed.set(bytes, font)
    }
    return font
  },
}

// Shaping (GSUB and GPOS lookups, DejaVu's kerning classes) is most of the time spent drawing
// text: 20 of the 50 ms of an audit PDF. pdf-lib shapes each string twice (measure, then encode)
// and only reads the glyphs of the result, so a string is shaped once per process and its run
// shared. Bounded: cleared when full.
const LAYOUT_CACHE_SIZE = 5000

/**
 * Shaping without ligatures: DejaVu's "ffi" and "fl" would otherwise be single glyphs that text
 * extraction reads as U+FB03 and U+FB02, so neither a submission id such as "sub_…tff…" nor a
 * typed "office" could be found by searching the PDF. Kerning and required ligatures (Arabic's
 * rlig) stay. pdf-lib hands these very features to layout() on each call.
 */
export const NO_LIGATURES = { liga: false, clig: false, dlig: false } as const

/** The glyphs of `text` as pdf-lib draws them with a font from embedFont (cached, no ligatures). */
export function shapeAsDrawn(font: fontkit.Font, text: string): fontkit.GlyphRun {
  return font.layout(text, NO_LIGATURES as unknown as fontkit.TypeFeatures)
}

function memoizeLayout(font: fontkit.Font): void {
  const shape = font.layout.bind(font)
  const runs = new Map<string, fontkit.GlyphRun>()
  font.layout = (text: string, ...options: unknown[]) => {
    const [features, ...rest] = options
    if (features !== NO_LIGATURES || rest.some((o) => o !== undefined)) {
      return shape(text, ...(options as []))
    }
    let run = runs.get(text)
    if (!run) {
      if (runs.size >= LAYOUT_CACHE_SIZE) runs.clear()
      run = shape(text, NO_LIGATURES as unknown as fontkit.TypeFeatures)
      runs.set(text, run)
    }
    return run
  }
}

/**
 * Reads and parses every face, so the first PDF of a process does not pay for it (~100 ms for
 * the three faces): for a worker to call when it starts.
 */
export async function preloadFonts(dir?: string): Promise<void> {
  for (const name of Object.keys(FONT_FILES) as FontName[])
    cachingFontkit.create(await readFontFile(name, dir))
}

const outlines = new WeakMap<PDFFont, fontkit.Font>()

/** Embeds one DejaVu face as a subset; call once per document and face, then share the PDFFont. */
export async function embedFont(doc: PDFDocument, name: FontName, dir?: string): Promise<PDFFont> {
  const bytes = await readFontFile(name, dir)
  doc.registerFontkit(cachingFontkit)
  const font = await doc.embedFont(bytes, { subset: true, features: NO_LIGATURES })
  outlines.set(font, cachingFontkit.create(bytes))
  return font
}

/**
 * The parsed font behind a PDFFont from embedFont, for what pdf-lib does not tell: real glyph
 * extents, and ascent and descent (pdf-lib 1.17's heightAtSize(size, { descender: false })
 * subtracts the descent in font units from a height in thousandths, so it is wrong for DejaVu).
 */
export function fontkitFontOf(font: PDFFont): fontkit.Font {
  const parsedFont = outlines.get(font)
  if (!parsedFont) throw new Error(`font ${font.name} was not embedded by fonts.ts embedFont`)
  return parsedFont
}

const coverage = new WeakMap<fontkit.Font, Set<number>>()

/** The characters the face has glyphs for, once per parsed face (shared by every document). */
function coverageOf(font: PDFFont): Set<number> {
  const face = fontkitFontOf(font)
  let set = coverage.get(face)
  if (!set) {
    set = new Set(face.characterSet)
    coverage.set(face, set)
  }
  return set
}

/**
 * The text as it can be drawn on one line in this font: composed (NFC, so "Ż" typed as Z + dot is
 * DejaVu's single glyph), controls and line breaks as spaces, invisible format characters (bidi
 * overrides, zero-width joiners) dropped, and every character without a glyph as MISSING_GLYPH, so
 * drawing never throws and never shows a blank .notdef box.
 */
export function drawableText(font: PDFFont, text: string): string {
  const glyphs = coverageOf(font)
  let out = ''
  for (const char of text.normalize('NFC')) {
    if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(char)) out += ' '
    else if (/\p{Cf}/u.test(char)) continue
    else out += glyphs.has(char.codePointAt(0)!) ? char : MISSING_GLYPH
  }
  return out
}
