// Font subsets for embedding, made by HarfBuzz's subsetter (harfbuzzjs ships hb-subset as its own
// WASM module): only the glyphs a document draws, from TrueType and CFF (Noto CJK) faces alike.
// fontkit's CFF subsetter, which pdf-lib uses, gives glyphs the wrong private dictionary when they
// come from several of a CID font's FDs (Noto CJK has 19), drawing them garbled.
//
// Glyph ids stay those of the whole face, so what shaping returned is what the PDF shows and its
// /W and /ToUnicode are keyed the same way:
// - TrueType keeps every glyph id (HB_SUBSET_FLAGS_RETAIN_GIDS), the others' outlines emptied: the
//   empty glyph slots compress to almost nothing (DejaVu: 6.9 KB deflated either way);
// - a CID-keyed CFF keeps each glyph's CID in its charset, and a PDF reader finds a glyph by CID
//   (ISO 32000-1 §9.7.4.2), so glyphs are renumbered and the codes stay the CIDs (= glyph ids in
//   Noto CJK, checked when the face is loaded). Keeping the ids there would cost 100 KB per font.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

interface SubsetExports {
  memory: { buffer: ArrayBuffer }
  malloc(size: number): number
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number
  hb_blob_destroy(blob: number): void
  hb_blob_get_length(blob: number): number
  hb_blob_get_data(blob: number, length: number): number
  hb_face_create(blob: number, index: number): number
  hb_face_destroy(face: number): void
  hb_face_reference_blob(face: number): number
  hb_set_add(set: number, value: number): void
  hb_subset_input_create_or_fail(): number
  hb_subset_input_destroy(input: number): void
  hb_subset_input_glyph_set(input: number): number
  hb_subset_input_set(input: number, which: number): number
  hb_subset_input_set_flags(input: number, flags: number): void
  hb_subset_or_fail(face: number, input: number): number
}

// hb-subset.h
const MEMORY_MODE_READONLY = 1
const FLAG_RETAIN_GIDS = 0x2
const FLAG_NO_LAYOUT_CLOSURE = 0x200
const SETS_DROP_TABLE_TAG = 3

/**
 * Tables a PDF reader never uses: shaping is done, glyphs are reached by id, names are in the PDF.
 * Without GSUB the subsetter adds no glyphs the text did not use.
 */
const DROPPED_TABLES = [
  'GSUB',
  'GPOS',
  'GDEF',
  'BASE',
  'JSTF',
  'MATH',
  'kern',
  'cmap',
  'name',
  'post',
  'vhea',
  'vmtx',
  'VORG',
  'DSIG',
]

// The project's TypeScript libraries declare no WebAssembly values (they come with the DOM's).
const { WebAssembly: wasmApi } = globalThis as unknown as {
  WebAssembly: {
    Module: new (bytes: Uint8Array) => object
    Instance: new (module: object, imports: object) => { exports: unknown }
  }
}

let subsetter: SubsetExports | undefined

function instance(): SubsetExports {
  if (!subsetter) {
    const path = createRequire(import.meta.url).resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')
    const module = new wasmApi.Module(readFileSync(path))
    subsetter = new wasmApi.Instance(module, {}).exports as SubsetExports
  }
  return subsetter
}

// A face's bytes are copied into the subsetter's memory once per process (a CJK collection is 19 MB).
const faces = new WeakMap<Uint8Array, Map<number, number>>()

function faceOf(wasm: SubsetExports, bytes: Uint8Array, index: number): number {
  let byIndex = faces.get(bytes)
  if (!byIndex) {
    const data = wasm.malloc(bytes.length)
    new Uint8Array(wasm.memory.buffer).set(bytes, data)
    const blob = wasm.hb_blob_create(data, bytes.length, MEMORY_MODE_READONLY, 0, 0)
    byIndex = new Map([[-1, blob]])
    faces.set(bytes, byIndex)
  }
  let face = byIndex.get(index)
  if (face === undefined) {
    face = wasm.hb_face_create(byIndex.get(-1)!, index)
    byIndex.set(index, face)
  }
  return face
}

const tag = (name: string) => [...name].reduce((value, char) => value * 256 + char.charCodeAt(0), 0)

/**
 * The face reduced to `glyphs` (and .notdef), as an OpenType file: TrueType outlines with their
 * glyph ids, or CFF ones renumbered (their CIDs kept).
 */
export function subsetFace(
  bytes: Uint8Array,
  index: number,
  glyphs: Iterable<number>,
  cff: boolean,
): Uint8Array {
  const wasm = instance()
  const face = faceOf(wasm, bytes, index)
  const input = wasm.hb_subset_input_create_or_fail()
  if (!input) throw new Error('hb-subset: out of memory')
  try {
    const glyphSet = wasm.hb_subset_input_glyph_set(input)
    wasm.hb_set_add(glyphSet, 0)
    for (const glyph of glyphs) wasm.hb_set_add(glyphSet, glyph)
    const dropped = wasm.hb_subset_input_set(input, SETS_DROP_TABLE_TAG)
    for (const table of DROPPED_TABLES) wasm.hb_set_add(dropped, tag(table))
    wasm.hb_subset_input_set_flags(input, FLAG_NO_LAYOUT_CLOSURE | (cff ? 0 : FLAG_RETAIN_GIDS))
    const subset = wasm.hb_subset_or_fail(face, input)
    if (!subset) throw new Error('hb-subset could not subset the font')
    const blob = wasm.hb_face_reference_blob(subset)
    const length = wasm.hb_blob_get_length(blob)
    const out = new Uint8Array(wasm.memory.buffer, wasm.hb_blob_get_data(blob, 0), length).slice()
    wasm.hb_blob_destroy(blob)
    wasm.hb_face_destroy(subset)
    return out
  } finally {
    wasm.hb_subset_input_destroy(input)
  }
}

/** One table of an OpenType file (the bare CFF a PDF embeds as /CIDFontType0C), or undefined. */
export function openTypeTable(font: Uint8Array, name: string): Uint8Array | undefined {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength)
  const count = view.getUint16(4)
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i
    if (view.getUint32(record) === tag(name)) {
      const offset = view.getUint32(record + 8)
      return font.subarray(offset, offset + view.getUint32(record + 12))
    }
  }
  return undefined
}
