import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { drawableText, embedFont, FontFileMissingError, preloadFonts, readFontFile } from './fonts.ts'

describe('readFontFile', () => {
  it('names the missing file and the package to install', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-fonts-'))
    try {
      await assert.rejects(readFontFile('sans', dir), (error: Error) => {
        assert.ok(error instanceof FontFileMissingError)
        assert.match(error.message, new RegExp(`${join(dir, 'DejaVuSans.ttf')} is missing`))
        assert.match(error.message, /fonts-dejavu-core/)
        return true
      })
    } finally {
      await rm(dir, { recursive: true })
    }
  })

  it('preloads every face, or names what is missing', async () => {
    await preloadFonts()
    await assert.rejects(preloadFonts('/nonexistent-font-dir'), FontFileMissingError)
  })

  it('reads each file once per process', async () => {
    assert.equal(await readFontFile('mono'), await readFontFile('mono'))
  })
})

describe('drawableText', () => {
  it('keeps what DejaVu draws, composes accents, and replaces the rest', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    assert.equal(
      drawableText(font, 'Łukasz Żółć, Пример, Ελληνικά, Straße'),
      'Łukasz Żółć, Пример, Ελληνικά, Straße',
    )
    assert.equal(drawableText(font, 'Z\u0307o\u0301'), 'Żó', 'NFC')
    assert.equal(drawableText(font, '山田 太郎'), '?? ??')
    assert.equal(drawableText(font, 'a\nb\r\nc\td'), 'a b  c d')
    assert.equal(
      drawableText(font, 'evil\u202Egnp.exe\u200B'),
      'evilgnp.exe',
      'bidi override and zero-width space dropped',
    )
  })
})

describe('embedFont', () => {
  it('keeps text extractable in every document sharing the parsed font', async () => {
    // Composite glyphs ("ó" = "o" + acute) once made a later document lose "o" from its text.
    for (const text of ['Żółć óéà', 'Company cooperation', 'Пример рр']) {
      const doc = await PDFDocument.create()
      const font = await embedFont(doc, 'sans')
      doc.addPage().drawText(text, { x: 20, y: 700, size: 12, font })
      assert.equal((await pdfText(await doc.save())).trim(), text)
    }
  })

  it('draws no ligatures: "ff", "fi", "ffl" are extracted as the letters typed, ids stay searchable', async () => {
    const text = 'sub_ItX3kQ1M9tffsde871 office affluent fjord'
    const doc = await PDFDocument.create()
    const font = await embedFont(doc, 'sans')
    doc.addPage().drawText(text, { x: 20, y: 700, size: 12, font })
    assert.equal((await pdfText(await doc.save())).trim(), text)
  })
})
