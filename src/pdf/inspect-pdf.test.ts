import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import {
  afterJunk,
  brokenXrefPdf,
  cyclicPageTree,
  encryptedPdf,
  flateBomb,
  forgedInfoPdf,
  garbagePdf,
  notAPdf,
  truncatedPdf,
} from '../../test/fixtures/hostile-pdfs.ts'
import {
  a4,
  a4Landscape,
  bigPdf,
  croppedPage,
  hundredPages,
  legal,
  letter,
  pdfOfPages,
  rotatedPage,
} from '../../test/fixtures/pdfs.ts'
import { InvalidPdfError, type InvalidPdfReason, inspectPdfBytes, inspectPdfFile } from './inspect-pdf.ts'

const MB = 1_000_000

function assertSizes(actual: Array<{ width: number; height: number }>, expected: Array<[number, number]>) {
  assert.equal(actual.length, expected.length)
  actual.forEach(({ width, height }, i) => {
    const [w, h] = expected[i]!
    assert.ok(Math.abs(width - w) < 0.01 && Math.abs(height - h) < 0.01, `page ${i + 1}: ${width}x${height}`)
  })
}

const refusedWith = (reason: InvalidPdfReason) => (error: unknown) => {
  assert.ok(error instanceof InvalidPdfError, String(error))
  assert.equal(error.reason, reason, error.message)
  return true
}

let dir: string
let files = 0
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paraph-inspect-test-'))
})
after(() => rm(dir, { recursive: true, force: true }))

async function fileOf(bytes: Uint8Array): Promise<string> {
  const path = join(dir, `${++files}.pdf`)
  await writeFile(path, bytes)
  return path
}

describe('inspectPdfBytes measures each page as the signer sees it', () => {
  const cases: Array<[string, () => Promise<Uint8Array>, [number, number]]> = [
    ['A4', a4, [595.28, 841.89]],
    ['Letter', letter, [612, 792]],
    ['Legal', legal, [612, 1008]],
    ['A4 landscape', a4Landscape, [841.89, 595.28]],
    ['A4 with /Rotate 90, swapped', () => rotatedPage(90), [841.89, 595.28]],
    ['A4 with /Rotate 180, not swapped', () => rotatedPage(180), [595.28, 841.89]],
    ['A4 with /Rotate -90, swapped', () => rotatedPage(-90), [841.89, 595.28]],
    ['A4 with /Rotate 450, swapped', () => rotatedPage(450), [841.89, 595.28]],
    ['A4 cropped to [50 50 545 792], the crop size', croppedPage, [495, 742]],
    ['A4 after 500 bytes of junk before %PDF-', () => afterJunk(500), [595.28, 841.89]],
  ]
  for (const [name, build, size] of cases) {
    it(name, async () => {
      const info = await inspectPdfBytes(await build())
      assert.equal(info.pageCount, 1)
      assertSizes(info.pages, [size])
      assert.equal(info.version, '1.7')
    })
  }

  it('lists mixed pages in order', async () => {
    const bytes = await pdfOfPages([PageSizes.A4, PageSizes.Letter, { size: PageSizes.Legal, rotate: 270 }])
    const info = await inspectPdfBytes(bytes)
    assert.equal(info.pageCount, 3)
    assertSizes(info.pages, [
      [595.28, 841.89],
      [612, 792],
      [1008, 612],
    ])
  })

  it('reads 100 pages of a ~5 MB file', async () => {
    const bytes = await hundredPages()
    assert.ok(bytes.length > 4.5 * MB && bytes.length < 5.5 * MB, `${bytes.length} bytes`)
    const info = await inspectPdfBytes(bytes)
    assert.equal(info.pageCount, 100)
    assertSizes(info.pages, Array(100).fill([595.28, 841.89]))
  })

  it('trusts no page line forged in the document metadata', async () => {
    const info = await inspectPdfBytes(await forgedInfoPdf())
    assert.equal(info.pageCount, 1)
    assertSizes(info.pages, [[595.28, 841.89]])
  })
})

describe('inspectPdfFile on 40 MB files', () => {
  it('inspects ten at once without the test process growing by 100 MB', async () => {
    const path = await fileOf(await bigPdf(40 * MB))
    const rssBefore = process.memoryUsage().rss
    const infos = await Promise.all(Array.from({ length: 10 }, () => inspectPdfFile(path)))
    const grown = process.memoryUsage().rss - rssBefore
    for (const info of infos) assertSizes(info.pages, [[595.28, 841.89]])
    assert.ok(grown < 100 * MB, `RSS grew by ${Math.round(grown / MB)} MB`)
  })

  it('timeout when pdfinfo runs past timeoutMs', async () => {
    const path = await fileOf(await brokenXrefPdf(40 * MB))
    await assert.rejects(inspectPdfFile(path, { timeoutMs: 50 }), refusedWith('timeout'))
  })
})

describe('inspectPdfBytes refuses', () => {
  it('not_pdf for a file without %PDF-', async () => {
    await assert.rejects(inspectPdfBytes(await notAPdf()), refusedWith('not_pdf'))
    await assert.rejects(inspectPdfBytes(new Uint8Array()), refusedWith('not_pdf'))
  })

  it('not_pdf when %PDF- comes after the first 1024 bytes', async () => {
    await assert.rejects(inspectPdfBytes(await afterJunk(1100)), refusedWith('not_pdf'))
  })

  for (const kind of ['user', 'owner'] as const) {
    it(`encrypted for a ${kind}-password PDF, saying so`, async () => {
      await assert.rejects(inspectPdfBytes(await encryptedPdf(kind)), (error) => {
        refusedWith('encrypted')(error)
        assert.match((error as Error).message, /encrypted \(password-protected\)/)
        return true
      })
    })
  }

  it('unreadable for a truncated PDF, with a short cause and no path', async () => {
    const path = await fileOf(await truncatedPdf())
    await assert.rejects(inspectPdfFile(path), (error) => {
      refusedWith('unreadable')(error)
      const { message } = error as Error
      assert.match(message, /^the PDF could not be parsed: \S/)
      assert.ok(!message.includes(dir) && message.length < 200, message)
      return true
    })
  })

  it('unreadable for a header followed by garbage', async () => {
    await assert.rejects(inspectPdfBytes(await garbagePdf()), refusedWith('unreadable'))
  })

  it('unreadable for a cyclic page tree, without harming this process', async () => {
    await assert.rejects(inspectPdfBytes(await cyclicPageTree()), (error) => {
      refusedWith('unreadable')(error)
      assert.match((error as Error).message, /page tree loops/)
      return true
    })
  })

  it('too_many_pages past 2000 pages', async () => {
    const bytes = await pdfOfPages(Array(2001).fill([200, 200]))
    await assert.rejects(inspectPdfBytes(bytes), refusedWith('too_many_pages'))
  })
})

describe('a Flate bomb (1.1 MB inflating to 1.1 GiB)', () => {
  it('is inspected or refused, never inflated in this process', async () => {
    const bytes = await flateBomb()
    const rssBefore = process.memoryUsage().rss
    // pdfinfo never decodes content streams; were it to, the memory limit would stop it.
    const outcome = await inspectPdfBytes(bytes).then(
      (info) => ({ info }),
      (error: unknown) => ({ error }),
    )
    const grown = process.memoryUsage().rss - rssBefore
    if ('error' in outcome) assert.ok(outcome.error instanceof InvalidPdfError, String(outcome.error))
    else assertSizes(outcome.info.pages, [[612, 792]])
    assert.ok(grown < 100 * MB, `RSS grew by ${Math.round(grown / MB)} MB`)
  })
})

describe('a server fault', () => {
  it('is a plain Error, not a refusal of the file, when pdfinfo cannot start', async () => {
    // 8 MiB of address space is too little to load poppler's shared libraries.
    const outcome = await inspectPdfBytes(await a4(), { memoryLimitBytes: 8 * 1024 * 1024 }).catch((e) => e)
    assert.ok(outcome instanceof Error && !(outcome instanceof InvalidPdfError), String(outcome))
    assert.match(outcome.message, /pdfinfo could not run/)
  })
})
