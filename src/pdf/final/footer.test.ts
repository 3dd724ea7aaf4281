import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PageSizes, PDFDocument } from 'pdf-lib'
import { inkBounds, inkCount } from '../../../test/fixtures/ink.ts'
import { pdfOfPages } from '../../../test/fixtures/pdfs.ts'
import { pdfText, qpdfCheck, rasterize } from '../../../test/fixtures/poppler.ts'
import { embedFont } from '../text/fonts.ts'
import { verticalMetrics, widthAt } from '../text/text-fit.ts'
import { addFooters, FOOTER_BAND, layoutFooter, placeFooter, SES_STATEMENT, sesFooter } from './footer.ts'

const SUBMISSION = 'sub_4f9XqK2mR8sT1vW3yZ5bC7dE'

async function withFooters(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf)
  addFooters(doc, await embedFont(doc, 'sans'), sesFooter(SUBMISSION))
  return doc.save()
}

const mixed = () =>
  pdfOfPages([
    PageSizes.A4,
    { size: PageSizes.A4, rotate: 90 },
    { size: PageSizes.A4, rotate: 180 },
    { size: PageSizes.A4, rotate: 270 },
    { size: PageSizes.A4, cropBox: [50, 50, 545, 792] },
    { size: PageSizes.Letter, rotate: -90, cropBox: [20, 40, 600, 700] },
  ])

describe('addFooters', () => {
  it('writes the SES statement, the submission and "page N of M" on every page', async () => {
    const out = await withFooters(await mixed())
    const pages = (await pdfText(out)).split('\f').slice(0, -1)
    assert.equal(pages.length, 6)
    pages.forEach((text, i) => {
      const line = text.replace(/\s+/g, ' ').trim()
      assert.equal(line, `${SES_STATEMENT} · ${SUBMISSION} · page ${i + 1} of 6`)
    })
    await qpdfCheck(out)
  })

  it('draws it upright along the bottom edge of the page as displayed, centred', async () => {
    const out = await withFooters(await mixed())
    for (let page = 1; page <= 6; page++) {
      const raster = await rasterize(out, page)
      const ink = inkBounds(raster)!
      assert.ok(
        ink.bottom <= raster.height - 2 && ink.top >= raster.height - 16,
        `page ${page}: at the bottom`,
      )
      assert.ok(ink.right - ink.left > 20 * (ink.bottom - ink.top), `page ${page}: one wide line`)
      const centre = (ink.left + ink.right) / 2
      assert.ok(Math.abs(centre - raster.width / 2) < 3, `page ${page}: centred`)
    }
  })

  it('fits a narrow page by shrinking, then wrapping between its parts', async () => {
    const out = await withFooters(
      await pdfOfPages([
        [300, 400],
        [110, 700],
      ]),
    )
    const text = (await pdfText(out)).replace(/\s+/g, ' ')
    for (const part of [SES_STATEMENT, SUBMISSION, 'page 1 of 2', 'page 2 of 2']) {
      assert.ok(text.includes(part), part)
    }
    for (const page of [1, 2]) {
      const raster = await rasterize(out, page)
      const ink = inkBounds(raster)!
      assert.ok(ink.left >= 2 && ink.right <= raster.width - 2, `page ${page}: within the width`)
      assert.equal(
        inkCount(raster, { left: 0, top: 0, right: raster.width, bottom: raster.height * (1 - FOOTER_BAND) }),
        0,
      )
    }
  })

  // issue #21 item 4: an 85 × 46 pt page had 17.5 % of it under the full footer.
  it('puts one short line (level and submission) within the bottom band of small pages', async () => {
    const sizes: Array<[number, number]> = [
      [85, 46],
      [150, 120],
      [110, 300],
      [2000, 30],
    ]
    const out = await withFooters(await pdfOfPages(sizes))
    const pages = (await pdfText(out)).split('\f').slice(0, -1)
    assert.deepEqual(
      pages.map((text) => text.replace(/\s+/g, ' ').trim()),
      sizes.map(() => `SES · ${SUBMISSION}`),
    )
    for (const [i, [width, height]] of sizes.entries()) {
      const raster = await rasterize(out, i + 1, 720)
      const ink = inkBounds(raster)
      assert.ok(ink, `page ${width} × ${height}: a footer is drawn`)
      const band = raster.height * FOOTER_BAND
      assert.ok(ink.top >= raster.height - band, `page ${width} × ${height}: ink from ${ink.top}`)
      assert.ok(ink.left >= 0 && ink.right <= raster.width - 1, `page ${width} × ${height}: within`)
    }
    await qpdfCheck(out)
  })
})

describe('placeFooter', () => {
  const texts = { parts: [SES_STATEMENT, SUBMISSION, 'page 12 of 340'], short: ['SES', SUBMISSION] }

  it('keeps the full footer on A4 and never covers more than the band on any page', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    const { ascent, descent } = verticalMetrics(font)
    const a4 = placeFooter(font, texts, { width: 595.276, height: 841.89 })
    assert.deepEqual(a4, { lines: [texts.parts.join(' · ')], size: 7, bottom: 6 })
    let short = 0
    for (const width of [8, 30, 85, 110, 200, 400, 595, 1200]) {
      for (const height of [10, 30, 46, 90, 150, 300, 600, 1000]) {
        const placed = placeFooter(font, texts, { width, height })
        const covered = placed.bottom + placed.lines.length * (ascent - descent) * placed.size
        assert.ok(covered <= height * FOOTER_BAND, `${width} × ${height}: ${covered} pt covered`)
        const margin = Math.min(24, width * 0.05)
        for (const line of placed.lines) assert.ok(widthAt(font, line, placed.size) <= width - 2 * margin)
        if (placed.lines[0] === `SES · ${SUBMISSION}`) {
          short++
          assert.ok(placed.size <= 5 && placed.lines.length === 1)
        }
      }
    }
    assert.ok(short > 20, `${short} pages took the short line`)
  })
})

describe('layoutFooter', () => {
  const parts = [SES_STATEMENT, SUBMISSION, 'page 12 of 340']

  it('keeps one 7 pt line on A4, shrinks to one line on a narrower page, wraps on a narrow one', async () => {
    const font = await embedFont(await PDFDocument.create(), 'sans')
    assert.deepEqual(layoutFooter(font, parts, 595 - 48), { lines: [parts.join(' · ')], size: 7 })
    const shrunk = layoutFooter(font, parts, 340)
    assert.equal(shrunk.lines.length, 1)
    assert.ok(shrunk.size < 7 && shrunk.size >= 5)
    const wrapped = layoutFooter(font, parts, 150)
    assert.equal(wrapped.size, 7)
    assert.ok(wrapped.lines.length > 2)
    for (const line of wrapped.lines) assert.ok(widthAt(font, line, 7) <= 150, line)
    assert.equal(wrapped.lines.join(' '), parts.join(' ').replace(/ ·/g, ''), 'broken between parts first')
  })
})
