// A face embedded in one pdf-lib document as a composite font (ISO 32000-1 §9.7): Type0 with
// Identity-H encoding, so each glyph is shown by a two-byte code, over a CIDFontType2 (TrueType) or
// CIDFontType0 (CFF) subset of the glyphs drawn (font-subset.ts). Codes are the face's glyph ids,
// the glyph ids HarfBuzz shaped, so an Arabic joining form or a Devanagari conjunct, which no
// character maps to, is drawn like any glyph. /W gives each glyph's advance; /ToUnicode maps each
// glyph to the characters it was drawn for (a lam-alef ligature to both letters), so copying and
// pdftotext give the text back (§9.10.3). The font's objects are written when the document is saved.
import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { type PDFContext, type PDFDocument, type PDFRef, PDFString } from 'pdf-lib'
import { openTypeTable, subsetFace } from './font-subset.ts'
import type { ShapingFace } from './shaping.ts'

export class CidFont {
  readonly ref: PDFRef
  private readonly refs: { cidFont: PDFRef; descriptor: PDFRef; file: PDFRef; toUnicode: PDFRef }
  /** Glyph id → the text it stands for in /ToUnicode; its first use decides. */
  private readonly texts = new Map<number, string>()
  private readonly glyphs = new Set<number>()
  private written = 0

  readonly face: ShapingFace
  constructor(face: ShapingFace, context: PDFContext) {
    this.face = face
    this.ref = context.nextRef()
    this.refs = {
      cidFont: context.nextRef(),
      descriptor: context.nextRef(),
      file: context.nextRef(),
      toUnicode: context.nextRef(),
    }
  }

  /** The glyph's advance as /W gives it: thousandths of the font size, rounded as written. */
  width(glyph: number): number {
    return Math.round((this.face.hb.glyphHAdvance(glyph) * 1000 * 1000) / this.face.unitsPerEm) / 1000
  }

  /**
   * Records that `glyph` is drawn for `text`. False when /ToUnicode already maps it to other text
   * (two characters drawn alike): the caller then marks this use with its own text.
   */
  use(glyph: number, text: string): boolean {
    this.glyphs.add(glyph)
    if (text === '') return true
    const known = this.texts.get(glyph)
    if (known === undefined) this.texts.set(glyph, text)
    return known === undefined || known === text
  }

  hasText(glyph: number): boolean {
    return this.texts.has(glyph)
  }

  /** Writes (or rewrites, after more text was drawn) the font's objects into `context`. */
  write(context: PDFContext): void {
    if (this.written === this.glyphs.size + this.texts.size) return
    this.written = this.glyphs.size + this.texts.size
    const glyphs = [...this.glyphs].sort((a, b) => a - b)
    const { face } = this
    const { program, compressed } = subsetProgram(face, glyphs)
    const name = `${subsetTag(face, glyphs)}+${face.postscriptName}`
    const scale = 1000 / face.unitsPerEm
    context.assign(
      this.refs.file,
      context.stream(compressed, {
        Filter: 'FlateDecode',
        ...(face.cff ? { Subtype: 'CIDFontType0C' } : { Length1: program.length }),
      }),
    )
    const { ascent, descent } = face
    context.assign(
      this.refs.descriptor,
      context.obj({
        Type: 'FontDescriptor',
        FontName: name,
        // Symbolic: glyphs are reached by id, not by a standard Latin encoding.
        Flags: 4,
        FontBBox: face.bbox.map((v) => Math.round(v * scale)),
        ItalicAngle: 0,
        Ascent: Math.round(ascent * scale),
        Descent: Math.round(descent * scale),
        CapHeight: Math.round(face.capHeight * scale),
        StemV: 80,
        [face.cff ? 'FontFile3' : 'FontFile2']: this.refs.file,
      }),
    )
    context.assign(
      this.refs.cidFont,
      context.obj({
        Type: 'Font',
        Subtype: face.cff ? 'CIDFontType0' : 'CIDFontType2',
        BaseFont: name,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: this.refs.descriptor,
        W: widthArray(glyphs, (glyph) => this.width(glyph)),
        ...(face.cff ? {} : { CIDToGIDMap: 'Identity' }),
      }),
    )
    context.assign(this.refs.toUnicode, context.flateStream(toUnicodeCMap(this.texts)))
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: name,
        Encoding: 'Identity-H',
        DescendantFonts: [this.refs.cidFont],
        ToUnicode: this.refs.toUnicode,
      }),
    )
  }
}

/**
 * The last subsets made, by face and glyphs: the audit trail's monospaced and bold faces draw the
 * same glyphs in most submissions, and subsetting and compressing a face is a fifth of its time.
 */
const subsets = new WeakMap<ShapingFace, Map<string, { program: Uint8Array; compressed: Buffer }>>()
const SUBSETS_CACHED = 8

function subsetProgram(face: ShapingFace, glyphs: number[]): { program: Uint8Array; compressed: Buffer } {
  let made = subsets.get(face)
  if (!made) {
    made = new Map()
    subsets.set(face, made)
  }
  const key = glyphs.join(',')
  const cached = made.get(key)
  if (cached) return cached
  const file = subsetFace(face.bytes, face.index, glyphs, face.cff)
  const program = face.cff ? openTypeTable(file, 'CFF ') : file
  if (!program) throw new Error(`the subset of ${face.postscriptName} has no CFF table`)
  const subset = { program, compressed: deflateSync(program) }
  if (made.size >= SUBSETS_CACHED) made.delete(made.keys().next().value!)
  made.set(key, subset)
  return subset
}

/** §9.6.4: a subset's name starts with six capital letters, here derived from its glyphs. */
function subsetTag(face: ShapingFace, glyphs: number[]): string {
  const digest = createHash('sha256')
    .update(`${face.postscriptName}:${glyphs.join(',')}`)
    .digest()
  return [...digest.subarray(0, 6)].map((byte) => String.fromCharCode(65 + (byte % 26))).join('')
}

/** §9.7.4.3: `[first [w1 w2 …] next [ … ]]`, one sub-array per run of consecutive glyph ids. */
function widthArray(glyphs: number[], width: (glyph: number) => number): Array<number | number[]> {
  const out: Array<number | number[]> = []
  let previous = -2
  for (const glyph of glyphs) {
    if (glyph !== previous + 1) out.push(glyph, [])
    ;(out.at(-1) as number[]).push(width(glyph))
    previous = glyph
  }
  return out
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase()

function utf16Hex(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) out += hex4(text.charCodeAt(i))
  return out
}

/** §9.10.3: glyph id → UTF-16BE text, in blocks of at most 100 entries as the CMap syntax asks. */
function toUnicodeCMap(texts: Map<number, string>): string {
  const entries = [...texts]
    .sort(([a], [b]) => a - b)
    .map(([glyph, text]) => `<${hex4(glyph)}> <${utf16Hex(text)}>`)
  const blocks: string[] = []
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100)
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`)
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n')
}

const documents = new WeakMap<PDFDocument, Map<ShapingFace, CidFont>>()

/**
 * The face as embedded in `doc`, made at first use. The document's save() writes every face it
 * used: pdf-lib calls flush() before serializing, and its own embedded fonts wait for it the same way.
 */
export function cidFontOf(doc: PDFDocument, face: ShapingFace): CidFont {
  let fonts = documents.get(doc)
  if (!fonts) {
    const used = new Map<ShapingFace, CidFont>()
    const flush = doc.flush.bind(doc)
    doc.flush = async () => {
      for (const font of used.values()) font.write(doc.context)
      await flush()
    }
    documents.set(doc, used)
    fonts = used
  }
  let font = fonts.get(face)
  if (!font) {
    font = new CidFont(face, doc.context)
    fonts.set(face, font)
  }
  return font
}
