import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
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
import { rawPdf } from '../../test/fixtures/raw-pdf.ts'
import {
  closePdfInspector,
  InvalidPdfError,
  type InvalidPdfReason,
  inspectPdfBytes,
  inspectPdfFile,
} from './inspect-pdf.ts'

const MB = 1_000_000
const MiB = 1024 * 1024

/**
 * A one-page PDF with a 40 MB content stream whose /Length is wrong, so pdf-lib scans it byte by
 * byte for `endstream`: about a second, a damaged file slow enough to exercise the timeout.
 */
const slowPdf = () =>
  rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    ['<< /Length 7 >>\nstream\n', randomBytes(40 * MB), '\nendstream'],
  ])

/** 10 MB holding an array of five million numbers: hundreds of MB once pdf-lib has parsed it. */
const heapBomb = () =>
  rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /Junk 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    `[${'0 '.repeat(5_000_000)}]`,
  ])

/**
 * ISO 32000-1 §7.7.3.4 inheritance: page 3 takes Letter and /Rotate 90 from the root; page 5 an
 * A4 MediaBox (an indirect array) and /Rotate 0 from a middle node; page 6 has its own boxes, one
 * coordinate an indirect number.
 */
const inheritingPdf = () =>
  rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 /MediaBox [0 0 612 792] /Rotate 90 >>',
    '<< /Type /Page /Parent 2 0 R >>',
    '<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 2 /MediaBox 7 0 R /Rotate 0 >>',
    '<< /Type /Page /Parent 4 0 R >>',
    '<< /Type /Page /Parent 4 0 R /MediaBox [0 0 8 0 R 300] /CropBox [0 0 100 200] >>',
    '[0 0 595 842]',
    '400',
  ])

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

  it('inherits MediaBox and /Rotate from the page tree nodes above a page', async () => {
    const info = await inspectPdfBytes(inheritingPdf())
    assertSizes(info.pages, [
      [792, 612],
      [595, 842],
      [100, 200],
    ])
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

  it('timeout when the reader runs past timeoutMs, and the next file is read', async () => {
    const path = await fileOf(slowPdf())
    const options = { timeoutMs: 200, poolSize: 1 }
    await assert.rejects(inspectPdfFile(path, options), (error) => {
      refusedWith('timeout')(error)
      assert.equal((error as Error).message, 'the PDF took longer than 0.2 s to read; it may be damaged')
      return true
    })
    assertSizes((await inspectPdfBytes(await a4(), options)).pages, [[595.28, 841.89]])
  })

  it('reads a file whose xref points past its end', async () => {
    const info = await inspectPdfFile(await fileOf(await brokenXrefPdf(40 * MB)))
    assertSizes(info.pages, [[595.28, 841.89]])
  })
})

describe('the pool of readers', () => {
  it('queues calls beyond its size and answers each', async () => {
    const files = [a4, letter, legal, a4Landscape, () => rotatedPage(90), hundredPages]
    const infos = await Promise.all(
      files.map(async (build) => inspectPdfBytes(await build(), { poolSize: 1 })),
    )
    assert.deepEqual(
      infos.map((info) => info.pageCount),
      [1, 1, 1, 1, 1, 100],
    )
    assertSizes(
      infos.map((info) => info.pages[0]!),
      [
        [595.28, 841.89],
        [612, 792],
        [612, 1008],
        [841.89, 595.28],
        [841.89, 595.28],
        [595.28, 841.89],
      ],
    )
  })

  it('unreadable when a reader dies mid-file (memory limit), and the next file is read', async () => {
    // 256 MiB lets a reader start (tsx needs ~160 MiB) but not hold five million parsed numbers.
    const options = { memoryLimitBytes: 256 * MiB, poolSize: 1 }
    await assert.rejects(inspectPdfBytes(heapBomb(), options), (error) => {
      refusedWith('unreadable')(error)
      assert.match((error as Error).message, /exhausted the memory allowed or crashed the reader/)
      return true
    })
    assertSizes((await inspectPdfBytes(await a4(), options)).pages, [[595.28, 841.89]])
  })

  it('starts again after closePdfInspector()', async () => {
    await inspectPdfBytes(await a4())
    closePdfInspector()
    assertSizes((await inspectPdfBytes(await a4())).pages, [[595.28, 841.89]])
  })

  it('lets a process that inspected a PDF exit on its own, and its readers with it', {
    timeout: 60_000,
  }, async () => {
    const path = await fileOf(await a4())
    const script = `
      import { readFileSync } from 'node:fs'
      import { inspectPdfFile } from ${JSON.stringify(new URL('./inspect-pdf.ts', import.meta.url).href)}
      const info = await inspectPdfFile(${JSON.stringify(path)})
      const readers = readFileSync(\`/proc/\${process.pid}/task/\${process.pid}/children\`, 'utf8')
      process.stdout.write(JSON.stringify({ pageCount: info.pageCount, readers: readers.trim().split(' ') }))
    `
    const root = fileURLToPath(new URL('../..', import.meta.url))
    // Resolves only once the script has exited: a reader keeping it alive would hang the test.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: root },
    )
    const { pageCount, readers } = JSON.parse(stdout) as { pageCount: number; readers: string[] }
    assert.equal(pageCount, 1)
    assert.ok(readers.length > 0)
    // Orphaned, each reader sees its stdin end and exits.
    for (const pid of readers) await untilGone(pid, Date.now() + 10_000)
  })
})

/** Waits, with a deadline, for a process to be gone (or a zombie awaiting its new parent). */
async function untilGone(pid: string, deadline: number): Promise<void> {
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
    if (stat === undefined || / Z /.test(stat)) return
    assert.ok(Date.now() < deadline, `reader ${pid} still running`)
    // Linux offers no exit notification for a process that is not our child: poll /proc.
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

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
    // pdf-lib never decodes content streams on load; were it to, the memory limit would stop it.
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
  it('is a plain Error, not a refusal of the file, when the reader cannot start', async () => {
    // 8 MiB of data segment is too little for node to start: it aborts at once.
    const outcome = await inspectPdfBytes(await a4(), { memoryLimitBytes: 8 * 1024 * 1024 }).catch((e) => e)
    assert.ok(outcome instanceof Error && !(outcome instanceof InvalidPdfError), String(outcome))
    assert.match(outcome.message, /PDF inspector could not start|could not run/)
  })
})
