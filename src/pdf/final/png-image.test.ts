import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib'
import { png, type Rgba } from '../../../test/fixtures/png.ts'
import { qpdfCheck, rasterizeRgb } from '../../../test/fixtures/poppler.ts'
import { embedPngNatively, MAX_PNG_PIXELS } from './png-image.ts'

const [W, H] = [24, 16]

/** Colour, alpha and position all vary, so a swapped channel or a wrong row shows. */
const pixel = (x: number, y: number): Rgba => [
  (x * 10) % 256,
  (y * 15) % 256,
  200 - x * 3,
  // A smooth ramp: poppler resamples a soft mask, so a sharp alpha edge would blur a pixel.
  Math.min(255, 30 + x * 7 + y * 5),
]

/** The pixel as drawn on white paper: what the rendered page must show. */
function onWhite([r, g, b, a]: Rgba, colourType: number): number[] {
  const alpha = colourType === 4 || colourType === 6 ? a / 255 : 1
  const channels = colourType === 0 || colourType === 4 ? [r, r, r] : [r, g, b]
  return channels.map((c) => Math.round(c * alpha + 255 * (1 - alpha)))
}

/** A page of exactly the image's size, one point per pixel, the image drawn over all of it. */
async function pageWith(bytes: Uint8Array, embed: 'native' | 'pdf-lib'): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const image = embed === 'native' ? embedPngNatively(doc, bytes) : await doc.embedPng(bytes)
  assert.ok(image, 'handled natively')
  const page = doc.addPage([W, H])
  const name = page.node.newXObject('Image', image.ref)
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(W, 0, 0, H, 0, 0),
    drawObject(name),
    popGraphicsState(),
  )
  return doc.save()
}

describe('embedPngNatively', () => {
  for (const colourType of [0, 2, 4, 6] as const) {
    it(`draws colour type ${colourType} as pdf-lib's decoder does, with every row filter`, async () => {
      const bytes = png(W, H, pixel, { colourType, filter: (y) => y % 5 })
      const out = await pageWith(bytes, 'native')
      await qpdfCheck(out)
      const [native, reference] = [
        await rasterizeRgb(out),
        await rasterizeRgb(await pageWith(bytes, 'pdf-lib')),
      ]
      assert.deepEqual([native.width, native.height], [W, H])
      assert.deepEqual(native.pixels, reference.pixels, 'the same rendering, pixel for pixel')
      // And both right: poppler resamples images a little, hence the tolerance.
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          const got = [...native.pixels.subarray((y * W + x) * 3, (y * W + x + 1) * 3)]
          const want = onWhite(pixel(x, y), colourType)
          assert.ok(
            got.every((v, k) => Math.abs(v - want[k]!) <= 16),
            `(${x}, ${y}): ${got} instead of ${want}`,
          )
        }
      }
    })
  }

  it('leaves out the soft mask when every pixel is opaque', async () => {
    const doc = await PDFDocument.create()
    const image = embedPngNatively(
      doc,
      png(4, 4, () => [10, 20, 30, 255]),
    )!
    assert.equal(doc.context.lookup(image.ref)?.toString().includes('/SMask'), false)
  })

  it('returns undefined for what it does not handle, so pdf-lib embeds it', async () => {
    const doc = await PDFDocument.create()
    const bytes = Buffer.from(png(2, 2, () => [0, 0, 0, 255]))
    const at = bytes.indexOf('IHDR') + 4
    const variant = (offset: number, value: number) => {
      const copy = Buffer.from(bytes)
      copy[at + offset] = value
      return copy
    }
    assert.equal(embedPngNatively(doc, variant(8, 16)), undefined, '16 bits per channel')
    assert.equal(embedPngNatively(doc, variant(12, 1)), undefined, 'interlaced')
    assert.equal(embedPngNatively(doc, variant(9, 3)), undefined, 'palette')
    assert.equal(embedPngNatively(doc, new TextEncoder().encode('GIF89a')), undefined, 'not a PNG')
  })

  it('refuses a header claiming more pixels than any signature pad, before inflating', async () => {
    const bytes = Buffer.from(png(1, 1, () => [0, 0, 0, 128]))
    const at = bytes.indexOf('IHDR') + 4
    bytes.writeUInt32BE(5000, at)
    bytes.writeUInt32BE(5000, at + 4)
    assert.ok(5000 * 5000 > MAX_PNG_PIXELS)
    const doc = await PDFDocument.create()
    assert.throws(() => embedPngNatively(doc, bytes), RangeError)
  })

  it('refuses image data shorter than the header says', async () => {
    const bytes = Buffer.from(png(1, 1, () => [0, 0, 0, 128]))
    bytes.writeUInt32BE(10, bytes.indexOf('IHDR') + 4 + 4)
    const doc = await PDFDocument.create()
    assert.throws(() => embedPngNatively(doc, bytes), /truncated/)
  })
})
