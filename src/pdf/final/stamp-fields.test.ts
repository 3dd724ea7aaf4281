import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PageSizes, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib'
import {
  inkBounds,
  inkCount,
  meanGrey,
  nonWhiteInRing,
  type PixelBox,
  pixelBox,
} from '../../../test/fixtures/ink.ts'
import { a4, croppedPage, letter, pdfOfPages, rotatedPage } from '../../../test/fixtures/pdfs.ts'
import { cornerMarkPng, solidPng } from '../../../test/fixtures/png.ts'
import { pdfText, qpdfCheck, type Raster, rasterize } from '../../../test/fixtures/poppler.ts'
import { embedFont } from '../text/fonts.ts'
import { type Stamp, stampFields } from './stamp-fields.ts'

async function stamped(pdf: Uint8Array, stamps: Stamp[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf)
  await stampFields(doc, stamps, await embedFont(doc, 'sans'))
  return doc.save()
}

/** A4 whose MediaBox starts away from the origin, as some scanners write it. */
async function offsetMediaBox(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.addPage(PageSizes.A4).setMediaBox(100, 200, PageSizes.A4[0], PageSizes.A4[1])
  return doc.save()
}

// Placed off-centre and apart, so a value drawn in the wrong corner or turned lands on white.
const TEXT = { x: 0.08, y: 0.1, w: 0.5, h: 0.06 }
const IMAGE = { x: 0.1, y: 0.3, w: 0.4, h: 0.15 }
const CHECKED = { x: 0.7, y: 0.32, w: 0.08, h: 0.06 }
const UNCHECKED = { x: 0.7, y: 0.55, w: 0.08, h: 0.06 }
const MARK_ASPECT = 3
const mark = cornerMarkPng(300, 100)

const stampsForEveryKind: Stamp[] = [
  { page: 1, area: TEXT, value: { kind: 'text', text: 'Łukasz Żółć' } },
  { page: 1, area: IMAGE, value: { kind: 'image', png: mark } },
  { page: 1, area: CHECKED, value: { kind: 'check', checked: true } },
  { page: 1, area: UNCHECKED, value: { kind: 'check', checked: false } },
]

/** Where an image of `aspect` (width / height) lands when fitted and centred in `box`. */
function fitted(box: PixelBox, aspect: number): PixelBox {
  const [width, height] = [box.right - box.left, box.bottom - box.top]
  const [w, h] = width / height > aspect ? [height * aspect, height] : [width, width / aspect]
  const [left, top] = [box.left + (width - w) / 2, box.top + (height - h) / 2]
  return { left, top, right: left + w, bottom: top + h }
}

/** The corner mark upright: its top-left quadrant black, the other three white. */
function assertUprightMark(raster: Raster, box: PixelBox): void {
  const image = fitted(box, MARK_ASPECT)
  const [midX, midY] = [(image.left + image.right) / 2, (image.top + image.bottom) / 2]
  const inset = 2
  const quadrant = (left: number, top: number, right: number, bottom: number) =>
    meanGrey(raster, { left: left + inset, top: top + inset, right: right - inset, bottom: bottom - inset })
  assert.ok(quadrant(image.left, image.top, midX, midY) < 30, 'top-left quadrant is black')
  for (const [l, t, r, b] of [
    [midX, image.top, image.right, midY],
    [image.left, midY, midX, image.bottom],
    [midX, midY, image.right, image.bottom],
  ] as const)
    assert.ok(quadrant(l, t, r, b) > 245, 'the other quadrants are white')
}

async function assertEveryKindInPlace(pdf: Uint8Array): Promise<void> {
  const out = await stamped(pdf, stampsForEveryKind)
  const raster = await rasterize(out)
  for (const area of [TEXT, IMAGE, CHECKED]) {
    const box = pixelBox(raster, area)
    assert.ok(inkCount(raster, box) > 20, `ink inside ${JSON.stringify(area)}`)
    assert.equal(nonWhiteInRing(raster, box), 0, `white around ${JSON.stringify(area)}`)
  }
  assert.equal(inkCount(raster, pixelBox(raster, UNCHECKED)), 0, 'an unchecked box stays empty')
  assertUprightMark(raster, pixelBox(raster, IMAGE))
  // Upright text is wider than tall; text turned a quarter would be the other way round.
  const text = inkBounds(raster, pixelBox(raster, TEXT))!
  assert.ok(text.right - text.left > 4 * (text.bottom - text.top))
  assert.match(await pdfText(out), /Łukasz Żółć/)
  await qpdfCheck(out)
}

describe('stampFields places every kind of value inside its area, upright', () => {
  it('on A4 and Letter pages', async () => {
    await assertEveryKindInPlace(await a4())
    await assertEveryKindInPlace(await letter())
  })

  for (const rotate of [90, 180, 270, -90, 450]) {
    it(`on a page with /Rotate ${rotate}`, async () => {
      await assertEveryKindInPlace(await rotatedPage(rotate))
    })
  }

  it('on a cropped page, and a cropped page also rotated', async () => {
    await assertEveryKindInPlace(await croppedPage())
    await assertEveryKindInPlace(
      await pdfOfPages([{ size: PageSizes.A4, rotate: 270, cropBox: [50, 80, 500, 792] }]),
    )
  })

  it('on a page whose MediaBox does not start at the origin', async () => {
    await assertEveryKindInPlace(await offsetMediaBox())
  })
})

/** A page whose content changes the matrix without restoring it, as some generators write. */
async function unbalancedContent(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage(PageSizes.A4)
  const stream = doc.context.flateStream('0.5 0 0 0.5 200 300 cm 0.9 g 0 0 100 100 re f')
  page.node.set(PDFName.of('Contents'), doc.context.register(stream))
  return doc.save()
}

describe('stampFields on existing content', () => {
  it("is not shifted by a matrix the page's content leaves behind", async () => {
    await assertEveryKindInPlace(await unbalancedContent())
  })

  it('draws nothing, and does not fail, in an area of no width or height', async () => {
    const flat = { x: 0.2, y: 0.2, w: 0.3, h: 0 }
    const out = await stamped(await a4(), [
      { page: 1, area: flat, value: { kind: 'image', png: mark } },
      { page: 1, area: flat, value: { kind: 'check', checked: true } },
      { page: 1, area: flat, value: { kind: 'text', text: 'x' } },
    ])
    assert.equal(inkBounds(await rasterize(out)), undefined)
    await qpdfCheck(out)
  })
})

describe('stampFields images', () => {
  it('fits a wide signature into a tall box keeping its aspect ratio, centred', async () => {
    const area = { x: 0.4, y: 0.2, w: 0.25, h: 0.4 }
    const out = await stamped(await a4(), [
      { page: 1, area, value: { kind: 'image', png: solidPng(400, 100) } },
    ])
    const raster = await rasterize(out)
    const box = pixelBox(raster, area)
    const ink = inkBounds(raster)!
    assert.equal(nonWhiteInRing(raster, box), 0)
    const [width, height] = [ink.right - ink.left, ink.bottom - ink.top]
    assert.ok(Math.abs(width - (box.right - box.left)) <= 2, 'as wide as the box')
    assert.ok(Math.abs(width / height - 4) < 0.25, `aspect ${width / height} kept`)
    const middle = (box.top + box.bottom) / 2
    assert.ok(Math.abs((ink.top + ink.bottom) / 2 - middle) <= 1.5, 'centred vertically')
  })

  it('embeds a PNG used by several areas once', async () => {
    const value = { kind: 'image', png: cornerMarkPng(60, 20) } as const
    const out = await stamped(await pdfOfPages([PageSizes.A4, PageSizes.A4]), [
      { page: 1, area: IMAGE, value },
      { page: 2, area: IMAGE, value: { kind: 'image', png: cornerMarkPng(60, 20) } },
      { page: 2, area: TEXT, value },
    ])
    const doc = await PDFDocument.load(out)
    const images = doc.context
      .enumerateIndirectObjects()
      .filter(
        ([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
      )
    assert.equal(images.length, 2, 'one image and its alpha mask')
  })
})

describe('stampFields text', () => {
  it('draws any script, and a character no installed face has as "?" instead of throwing', async () => {
    const values = ['Пример', 'Ελληνικά', 'Straße 5', '日本 Tanaka', 'ሰላም Abebe']
    const out = await stamped(
      await a4(),
      values.map((text, i) => ({
        page: 1,
        area: { x: 0.1, y: 0.1 + i * 0.1, w: 0.6, h: 0.05 },
        value: { kind: 'text', text },
      })),
    )
    const text = await pdfText(out)
    for (const expected of ['Пример', 'Ελληνικά', 'Straße 5', '日本 Tanaka', '??? Abebe'])
      assert.ok(text.includes(expected), expected)
  })

  it('grows with the box, vertically centred', async () => {
    const [small, large] = [
      { x: 0.1, y: 0.1, w: 0.8, h: 0.02 },
      { x: 0.1, y: 0.4, w: 0.8, h: 0.08 },
    ]
    const value = { kind: 'text', text: 'HHHH' } as const
    const out = await stamped(await a4(), [
      { page: 1, area: small, value },
      { page: 1, area: large, value },
    ])
    const raster = await rasterize(out)
    const [a, b] = [inkBounds(raster, pixelBox(raster, small))!, inkBounds(raster, pixelBox(raster, large))!]
    assert.ok(b.bottom - b.top > 3.5 * (a.bottom - a.top), 'four times the box, about four times the text')
    const box = pixelBox(raster, large)
    // Capitals sit above the baseline: their middle is a little above the box's.
    const offset = (box.top + box.bottom) / 2 - (b.top + b.bottom) / 2
    assert.ok(offset >= 0 && offset < (box.bottom - box.top) * 0.15, `offset ${offset}`)
  })

  it('shrinks a long value to the minimum size, then ends it with an ellipsis inside the box', async () => {
    const area = { x: 0.1, y: 0.1, w: 0.2, h: 0.03 }
    const long = `Company name ${'very '.repeat(60)}long`
    const out = await stamped(await a4(), [{ page: 1, area, value: { kind: 'text', text: long } }])
    const raster = await rasterize(out)
    assert.equal(nonWhiteInRing(raster, pixelBox(raster, area)), 0)
    assert.match(await pdfText(out), /^Company name very[ a-z]*…$/m)
  })

  it('draws line breaks and tabs as spaces, on one line', async () => {
    const out = await stamped(await a4(), [{ page: 1, area: TEXT, value: { kind: 'text', text: 'a\nb\tc' } }])
    assert.match(await pdfText(out), /a b c/)
  })
})

describe('stampFields refusals', () => {
  it('throws a RangeError for a page the document does not have', async () => {
    const doc = await PDFDocument.load(await a4())
    const font = await embedFont(doc, 'sans')
    await assert.rejects(
      stampFields(doc, [{ page: 2, area: TEXT, value: { kind: 'text', text: 'x' } }], font),
      RangeError,
    )
  })
})
