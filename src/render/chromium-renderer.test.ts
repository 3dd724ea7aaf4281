// The renderer on real Chromium: where the markers come back, the exact page sizes, the margins,
// and the PDF left without a trace of the markers.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib'
import { pdfText } from '../../test/fixtures/poppler.ts'
import type { FieldMark } from './chromium-renderer.ts'
import { marker, markPrefix, recordingLogger, testRenderer } from './renderer-test-kit.ts'

const renderer = testRenderer()

function assertNear(mark: FieldMark | undefined, expected: Omit<FieldMark, 'index'>, index: number): void {
  assert.ok(mark, `mark ${index} is missing`)
  assert.equal(mark.index, index)
  assert.equal(mark.page, expected.page, `mark ${index} page`)
  for (const key of ['x', 'y', 'w', 'h'] as const) {
    assert.ok(
      Math.abs(mark[key] - expected[key]) <= 2,
      `mark ${index} ${key}: ${mark[key]} vs ${expected[key]}`,
    )
  }
}

/** Three sections, the second and third each on a new page; page margins 0. */
function threePages(prefix: string): string {
  const at = (i: number, left: number, top: number, w: number, h: number) =>
    marker(prefix, i, `position:absolute;left:${left}pt;top:${top}pt;width:${w}pt;height:${h}pt`)
  return `<!DOCTYPE html><html><head><style>
    @page { margin: 0 } body, p { margin: 0 } section { position: relative; height: 780pt }
    section + section { break-before: page }
  </style></head><body>
  <section><p>First page</p>${at(1, 300, 500, 120, 40)}${at(0, 72, 100, 160, 48)}</section>
  <section><p>Second page</p></section>
  <section><p>Third page</p>${at(2, 50, 700, 100, 30)}</section>
  </body></html>`
}

async function boxes(pdf: Uint8Array, name: 'MediaBox' | 'CropBox'): Promise<Array<number[] | undefined>> {
  const doc = await PDFDocument.load(pdf)
  return doc.getPages().map((page) => {
    const box = page.node.lookupMaybe(PDFName.of(name), PDFArray)
    return box?.asArray().map((n) => Number(n.toString()))
  })
}

describe('ChromiumRenderer: where the markers are', () => {
  it('returns each marker box within 2 pt, on its page, sorted by index (A4)', async () => {
    const prefix = markPrefix()
    const rendered = await renderer.render(threePages(prefix), 'A4', prefix)
    assert.equal(rendered.pages, 3)
    assert.equal(rendered.marks.length, 3)
    assertNear(rendered.marks[0], { page: 1, x: 72, y: 100, w: 160, h: 48 }, 0)
    assertNear(rendered.marks[1], { page: 1, x: 300, y: 500, w: 120, h: 40 }, 1)
    assertNear(rendered.marks[2], { page: 3, x: 50, y: 700, w: 100, h: 30 }, 2)
  })

  it('measures y from the top of a Letter page', async () => {
    const prefix = markPrefix()
    const rendered = await renderer.render(threePages(prefix), 'Letter', prefix)
    assert.equal(rendered.pages, 3)
    assertNear(rendered.marks[2], { page: 3, x: 50, y: 700, w: 100, h: 30 }, 2)
  })

  it('follows a marker that the flow of the text pushes onto a later page', async () => {
    const prefix = markPrefix()
    const filler = '<p style="margin:0;height:100pt;break-inside:avoid">filler</p>'.repeat(12)
    const html = `<style>body { margin: 0 }</style>${filler}${marker(prefix, 7, 'width:160pt;height:48pt')}`
    const rendered = await renderer.render(html, 'A4', prefix)
    // 20 mm margins leave 728.6 pt per A4 page: seven 100 pt paragraphs, then five, then the marker.
    assert.equal(rendered.pages, 2)
    assertNear(rendered.marks[0], { page: 2, x: 56.7, y: 56.7 + 500, w: 160, h: 48 }, 7)
  })
})

describe('ChromiumRenderer: pages and margins', () => {
  it('writes every A4 page as exactly 595 × 842 pt and every Letter page as 612 × 792 pt', async () => {
    const prefix = markPrefix()
    for (const [format, size] of [
      ['A4', [0, 0, 595, 842]],
      ['Letter', [0, 0, 612, 792]],
    ] as const) {
      const { pdf } = await renderer.render(threePages(prefix), format, prefix)
      assert.deepEqual(await boxes(pdf, 'MediaBox'), [size, size, size])
      for (const crop of await boxes(pdf, 'CropBox')) if (crop) assert.deepEqual(crop, size)
    }
  })

  it('puts 20 mm margins around a document that sets none', async () => {
    const prefix = markPrefix()
    const html = `<style>body { margin: 0 }</style>${marker(prefix, 0, 'width:100pt;height:20pt')}`
    const { marks } = await renderer.render(html, 'A4', prefix)
    assertNear(marks[0], { page: 1, x: 56.7, y: 56.7, w: 100, h: 20 }, 0)
  })

  it("lets the document's own @page margin win over the default", async () => {
    const prefix = markPrefix()
    for (const [rule, x, y] of [
      ['@page { margin: 0 }', 0, 0],
      ['@page { margin: 10mm 0 0 30mm }', 85.04, 28.35],
    ] as const) {
      const html = `<style>${rule} body { margin: 0 }</style>${marker(prefix, 0, 'width:100pt;height:20pt')}`
      const { marks } = await renderer.render(html, 'A4', prefix)
      assertNear(marks[0], { page: 1, x, y, w: 100, h: 20 }, 0)
    }
  })

  it('keeps A4 whatever size the document asks for with @page { size }', async () => {
    const prefix = markPrefix()
    const { pdf } = await renderer.render('<style>@page { size: A3 landscape }</style><p>x</p>', 'A4', prefix)
    assert.deepEqual(await boxes(pdf, 'MediaBox'), [[0, 0, 595, 842]])
  })
})

describe('ChromiumRenderer: the PDF handed back', () => {
  it('leaves no marker URI in the bytes nor the text, and keeps the author\u2019s own links', async () => {
    const prefix = markPrefix()
    const html = `<p>Hello <a href="https://example.com/kept">example</a></p>${threePages(prefix)}`
    const { pdf } = await renderer.render(html, 'A4', prefix)
    const bytes = Buffer.from(pdf)
    assert.equal(bytes.includes('fields.paraph.invalid'), false)
    assert.equal(bytes.includes(prefix.split('/')[3]!), false, 'the nonce is gone too')
    const text = await pdfText(pdf)
    assert.match(text, /Hello example/)
    assert.doesNotMatch(text, /paraph\.invalid/)
    const doc = await PDFDocument.load(pdf)
    const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray)
    const uris = annots.asArray().map((ref) => {
      const action = doc.context.lookup(ref, PDFDict).lookup(PDFName.of('A'), PDFDict)
      return action.get(PDFName.of('URI'))?.toString()
    })
    assert.deepEqual(uris, ['(https://example.com/kept)'])
  })

  it('ignores links to another nonce: a document cannot forge a marker', async () => {
    const prefix = markPrefix()
    const forged = `${markPrefix()}0`
    const html = `<a href="${forged}" style="display:inline-block;width:50pt;height:50pt"></a>`
    const { pdf, marks } = await renderer.render(html, 'A4', prefix)
    assert.deepEqual(marks, [])
    assert.equal(Buffer.from(pdf).includes(forged), true, 'left as the author wrote it')
  })

  it('logs each render at debug with its timings', async () => {
    const logger = recordingLogger()
    const own = testRenderer({ logger })
    await own.warm()
    const prefix = markPrefix()
    await own.render(threePages(prefix), 'A4', prefix)
    const entry = logger.entries.find((e) => e.message === 'html rendered')
    assert.ok(entry)
    assert.equal(entry.level, 'debug')
    const render = entry.object.render as Record<string, unknown>
    assert.equal(render.pages, 3)
    assert.equal(render.spare_context, true, 'warm() made the first context ahead of time')
    for (const key of ['acquire_ms', 'set_content_ms', 'pdf_ms', 'post_ms', 'total_ms']) {
      assert.equal(typeof render[key], 'number', key)
    }
  })
})
