import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, rgb } from 'pdf-lib'
import { pdfText } from '../../../test/fixtures/poppler.ts'
import { drawText } from './draw-text.ts'
import {
  DEFAULT_FONT_DIR,
  drawableText,
  embedFont,
  FontFileMissingError,
  MISSING_GLYPH,
  preloadFonts,
  readFontFile,
  typeface,
} from './fonts.ts'

describe('font files', () => {
  it('name the missing file and the Debian package to install', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-fonts-'))
    try {
      assert.throws(
        () => typeface('sans', dir),
        (error: Error) => {
          assert.ok(error instanceof FontFileMissingError)
          assert.match(error.message, new RegExp(`${join(dir, 'truetype/dejavu/DejaVuSans.ttf')} is missing`))
          assert.match(error.message, /fonts-dejavu-core/)
          return true
        },
      )
    } finally {
      await rm(dir, { recursive: true })
    }
  })

  it('fail loudly when a script needs a face whose package is not installed, and only then', async () => {
    // A directory with DejaVu alone: Latin still draws, Thai names fonts-noto-ui-core.
    const dir = await mkdtemp(join(tmpdir(), 'paraph-fonts-'))
    try {
      const { mkdir, copyFile } = await import('node:fs/promises')
      await mkdir(join(dir, 'truetype/dejavu'), { recursive: true })
      await copyFile(
        join(DEFAULT_FONT_DIR, 'truetype/dejavu/DejaVuSans.ttf'),
        join(dir, 'truetype/dejavu/DejaVuSans.ttf'),
      )
      const font = await embedFont(await PDFDocument.create(), 'sans', dir)
      assert.equal(drawableText(font, 'Łukasz ሰላም'), 'Łukasz ???', 'a script no face is kept for: "?"')
      assert.throws(
        () => drawableText(font, 'สมชาย'),
        /NotoSansThaiUI-Regular\.ttf is missing: install Debian's fonts-noto-ui-core/,
      )
    } finally {
      await rm(dir, { recursive: true })
    }
  })

  it('preloads every face of every style, or names what is missing', () => {
    preloadFonts()
    assert.throws(() => preloadFonts('/nonexistent-font-dir'), FontFileMissingError)
  })

  it('reads each file once per process', () => {
    const file = { path: 'truetype/dejavu/DejaVuSansMono.ttf', package: 'fonts-dejavu-core' }
    assert.equal(readFontFile(file), readFontFile(file))
  })

  // font-subset.ts keeps CJK glyph codes as CIDs: true of Noto Sans CJK, whose charset is CID = glyph id.
  it("Noto Sans CJK's CIDs are its glyph ids", () => {
    for (const name of ['NotoSansCJK-Regular.ttc', 'NotoSansCJK-Bold.ttc']) {
      const collection = fontkit.create(
        readFileSync(join(DEFAULT_FONT_DIR, 'opentype/noto', name)),
      ) as unknown as {
        fonts: Array<{ numGlyphs: number; 'CFF ': { isCIDFont: boolean; topDict: { charset: unknown } } }>
      }
      for (const face of collection.fonts.slice(0, 3)) {
        const cff = face['CFF ']
        assert.ok(cff.isCIDFont)
        assert.deepEqual(cff.topDict.charset, {
          version: 2,
          ranges: [{ first: 1, nLeft: face.numGlyphs - 2, offset: 0 }],
        })
      }
    }
  })
})

describe('drawableText', () => {
  it('keeps what some face draws, composes accents, and replaces the rest, recording it', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    assert.equal(
      drawableText(font, 'Łukasz Żółć, Пример, Ελληνικά, 山田 太郎'),
      'Łukasz Żółć, Пример, Ελληνικά, 山田 太郎',
    )
    assert.equal(drawableText(font, 'Z\u0307o\u0301'), 'Żó', 'NFC')
    assert.equal(drawableText(font, 'a\nb\r\nc\td'), 'a b  c d')
    assert.equal(
      drawableText(font, 'evil\u202Egnp.exe\u200B'),
      'evilgnp.exe',
      'bidi override and zero-width space dropped',
    )
    assert.equal(drawableText(font, 'क्\u200Dष ن\u200Cم'), 'क्\u200Dष ن\u200Cم', 'joiners steer shaping: kept')
    assert.deepEqual([...font.missing], [])
    assert.equal(drawableText(font, 'Abebe ሰላም 𓀀'), `Abebe ${MISSING_GLYPH.repeat(3)} ${MISSING_GLYPH}`)
    assert.deepEqual([...font.missing], ['ሰ', 'ላ', 'ም', '𓀀'])
  })
})

describe('embedded faces', () => {
  it('keep text extractable in every document sharing the parsed faces', async () => {
    for (const text of ['Żółć óéà cooperation', 'Company cooperation', 'Пример рр 王小明']) {
      const doc = await PDFDocument.create()
      const font = await embedFont(doc, 'sans')
      drawText(doc.addPage(), font, text, { x: 20, y: 700, size: 12, color: rgb(0, 0, 0) })
      assert.equal((await pdfText(await doc.save())).trim(), text)
    }
  })

  it('draw no ligatures: "ff", "fi", "ffl" are extracted as the letters typed, ids stay searchable', async () => {
    const text = 'sub_ItX3kQ1M9tffsde871 office affluent fjord'
    const doc = await PDFDocument.create()
    const font = await embedFont(doc, 'sans')
    drawText(doc.addPage(), font, text, { x: 20, y: 700, size: 12, color: rgb(0, 0, 0) })
    assert.equal((await pdfText(await doc.save())).trim(), text)
  })
})
