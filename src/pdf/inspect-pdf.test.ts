import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { constants, deflateRawSync } from 'node:zlib'
import { PageSizes } from 'pdf-lib'
import {
  afterJunk,
  brokenXrefPdf,
  cyclicPageTree,
  flateBomb,
  forgedInfoPdf,
  garbagePdf,
  notAPdf,
  truncatedPdf,
} from '../../test/fixtures/hostile-pdfs.ts'
import {
  brokenXref,
  certifiedPdf,
  encryptedPdf,
  hugeObjectNumbers,
  pageTreeRootIsPage,
  pageWithoutMediaBox,
  pdfWithoutHeader,
  signedPdf,
} from '../../test/fixtures/pdf-features.ts'
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

const run = promisify(execFile)
const MB = 1_000_000
const MiB = 1024 * 1024
const latin1 = (text: string) => Buffer.from(text, 'latin1')

/** A one-page file's objects after the catalog's own entries, `page` inside the page dictionary. */
const onePage = (catalogEntries = '', page = '/MediaBox [0 0 612 792]', more: string[] = []) =>
  rawPdf([
    `<< /Type /Catalog /Pages 2 0 R ${catalogEntries} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R ${page} >>`,
    ...more,
  ])

/**
 * A one-page PDF whose page tree sits in an object stream after `inflatedMiB` MiB of spaces, all
 * from ~1 KB a MiB of Flate data: MuPDF inflates the stream up to the objects it needs, in
 * constant memory, at ~100 MiB a second here — a file slow enough to exercise the timeout.
 */
function objectStreamBomb(inflatedMiB: number): Uint8Array {
  const objects =
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] >>'
  const padding = inflatedMiB * MiB
  const header = `2 ${padding} 3 ${padding + objects.indexOf('<< /Type /Page ')} `
  const flush = { finishFlush: constants.Z_SYNC_FLUSH }
  const spaces = deflateRawSync(Buffer.alloc(MiB, 0x20), { level: 9, ...flush })
  const data = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    deflateRawSync(latin1(header), flush),
    ...Array<Buffer>(inflatedMiB).fill(spaces),
    deflateRawSync(latin1(objects)),
  ])
  const parts = [latin1('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n')]
  const streamAt = parts[0]!.length
  parts.push(
    latin1(
      `4 0 obj\n<< /Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
    ),
    data,
    latin1('\nendstream\nendobj\n'),
  )
  const xrefAt = parts.reduce((sum, part) => sum + part.length, 0)
  // An xref stream: only it can say that objects 2 and 3 live in object stream 4 (type 2 entries).
  const row = (type: number, field2: number, field3: number) => {
    const bytes = Buffer.alloc(7)
    bytes[0] = type
    bytes.writeUInt32BE(field2, 1)
    bytes.writeUInt16BE(field3, 5)
    return bytes
  }
  const table = Buffer.concat([
    row(0, 0, 65535),
    row(1, 9, 0),
    row(2, 4, 0),
    row(2, 4, 1),
    row(1, streamAt, 0),
    row(1, xrefAt, 0),
  ])
  parts.push(
    latin1(`5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Length ${table.length} >>\nstream\n`),
    table,
    latin1(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
  )
  return Buffer.concat(parts)
}

/** A page whose MediaBox is an array of `count` numbers: MuPDF builds every one in its WASM heap. */
const heapBomb = (count: number) => onePage('', '/MediaBox 4 0 R', [`[${'0 '.repeat(count)}]`])

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

/** A tree of `pages` pages, ten kids a node, as large writers make them. */
function balancedTree(pages: number): Uint8Array {
  const bodies: string[] = []
  const add = (body: string) => bodies.push(body) + 1
  let level = Array.from({ length: pages }, () => ({
    ref: add('<< /Type /Page /MediaBox [0 0 612 792] >>'),
    count: 1,
  }))
  while (level.length > 1) {
    const next: typeof level = []
    for (let i = 0; i < level.length; i += 10) {
      const group = level.slice(i, i + 10)
      const count = group.reduce((sum, node) => sum + node.count, 0)
      const kids = group.map((node) => `${node.ref} 0 R`).join(' ')
      next.push({ ref: add(`<< /Type /Pages /Kids [${kids}] /Count ${count} >>`), count })
    }
    level = next
  }
  return rawPdf([`<< /Type /Catalog /Pages ${level[0]!.ref} 0 R >>`, ...bodies])
}

/** Page sizes as poppler's pdfinfo reports them: what a viewer shows. */
async function popplerSizes(bytes: Uint8Array): Promise<Array<[number, number]>> {
  const path = await fileOf(bytes)
  const { stdout } = await run('pdfinfo', ['-f', '1', '-l', '100', path])
  return [...stdout.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ])
}

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

  it('says a plain file is neither encrypted, repaired, certified nor signed', async () => {
    const { encrypted, repaired, certification, signatures } = await inspectPdfBytes(await a4())
    assert.deepEqual(
      { encrypted, repaired, certification, signatures },
      {
        encrypted: false,
        repaired: false,
        certification: undefined,
        signatures: 0,
      },
    )
  })

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

describe('inspectPdfBytes accepts what viewers open (issue #21 item 3)', () => {
  for (const encryption of ['aes-256', 'aes-128', 'rc4-40'] as const) {
    it(`${encryption} with an empty user password: measured as poppler shows it, said encrypted`, async () => {
      const bytes = await encryptedPdf({ userPassword: '', encryption })
      const info = await inspectPdfBytes(bytes)
      assertSizes(info.pages, await popplerSizes(bytes))
      assert.equal(info.encrypted, true)
      assert.equal(info.repaired, false)
    })
  }

  it('an /Encrypt entry that is not a dictionary: not encrypted, but damaged (qpdf refuses it)', async () => {
    const bytes = Buffer.from(onePage()).toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encrypt 42')
    const info = await inspectPdfBytes(latin1(bytes))
    assert.equal(info.encrypted, false)
    assert.equal(info.repaired, true)
    assertSizes(info.pages, [[612, 792]])
  })

  it('a page tree whose root is a Page: one page, as poppler shows it, and repaired', async () => {
    const bytes = await pageTreeRootIsPage()
    const info = await inspectPdfBytes(bytes)
    assertSizes(info.pages, [[595, 842]])
    assertSizes(info.pages, await popplerSizes(bytes))
    assert.equal(info.repaired, true)
  })

  it('a page without a MediaBox, anywhere in its tree: US Letter, as poppler shows it', async () => {
    const bytes = await pageWithoutMediaBox()
    const info = await inspectPdfBytes(bytes)
    assertSizes(info.pages, [[612, 792]])
    assertSizes(info.pages, await popplerSizes(bytes))
    assert.equal(info.repaired, false)
  })

  for (const kind of ['xref', 'trailer-object'] as const) {
    it(`an object numbered 2^31 - 1 (${kind}): past MuPDF's 8 388 607, dropped, the file repaired`, async () => {
      const info = await inspectPdfBytes(await hugeObjectNumbers(kind))
      assertSizes(info.pages, [[595, 842]])
      assert.equal(info.repaired, true)
    })
  }

  it('a broken xref, rebuilt by scanning the file, and said to be repaired', async () => {
    const info = await inspectPdfBytes(await brokenXref())
    assertSizes(info.pages, [[595, 842]])
    assert.equal(info.repaired, true)
  })

  it('a header after 1.6 KB of mail headers, or no header at all: read by MuPDF, and repaired', async () => {
    for (const kind of ['junk-first', 'no-header'] as const) {
      const bytes = await pdfWithoutHeader(kind)
      assert.ok(!Buffer.from(bytes).subarray(0, 1024).includes('%PDF-'))
      const info = await inspectPdfBytes(bytes)
      assertSizes(info.pages, [[595, 842]])
      assert.equal(info.repaired, true, kind)
    }
  })

  it('certified with DocMDP level 2 or 3: its level and its signature counted', async () => {
    for (const level of [2, 3] as const) {
      const info = await inspectPdfBytes(await certifiedPdf(level))
      assert.equal(info.certification, level)
      assert.equal(info.signatures, 1)
    }
  })

  it('signed before upload: one signature, no certification', async () => {
    const info = await inspectPdfBytes(await signedPdf())
    assert.equal(info.signatures, 1)
    assert.equal(info.certification, undefined)
  })
})

describe('inspectPdfFile on large files', () => {
  it('inspects ten at once without the test process growing by 100 MB', async () => {
    const path = await fileOf(await bigPdf(40 * MB))
    const rssBefore = process.memoryUsage().rss
    const infos = await Promise.all(Array.from({ length: 10 }, () => inspectPdfFile(path)))
    const grown = process.memoryUsage().rss - rssBefore
    for (const info of infos) assertSizes(info.pages, [[595.28, 841.89]])
    assert.ok(grown < 100 * MB, `RSS grew by ${Math.round(grown / MB)} MB`)
  })

  it('reads a 50 MB file (the largest upload) under the default memory limit', async () => {
    const info = await inspectPdfFile(await fileOf(await bigPdf(50 * MB)))
    assertSizes(info.pages, [[595.28, 841.89]])
  })

  it('timeout when the reader runs past timeoutMs, and the next file is read', async () => {
    // ~0.3 GiB to inflate before the page tree: seconds of work.
    const path = await fileOf(objectStreamBomb(300))
    const options = { timeoutMs: 200, poolSize: 1 }
    await assert.rejects(inspectPdfFile(path, options), (error) => {
      refusedWith('timeout')(error)
      assert.equal((error as Error).message, 'the PDF took longer than 0.2 s to read; it may be damaged')
      return true
    })
    assertSizes((await inspectPdfBytes(await a4(), options)).pages, [[595.28, 841.89]])
  })

  it('reads a 50 MB file whose xref points past its end, rebuilding the xref', async () => {
    const info = await inspectPdfFile(await fileOf(await brokenXrefPdf(50 * MB)))
    assertSizes(info.pages, [[595.28, 841.89]])
    assert.equal(info.repaired, true)
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

  it('unreadable when a reader runs out of memory (memory limit), and the next file is read', async () => {
    // 256 MiB lets a reader start (tsx needs ~160 MiB) but not hold five million numbers as MuPDF
    // objects (~250 MB measured): MuPDF's allocation fails inside the child, which says so.
    const options = { memoryLimitBytes: 256 * MiB, poolSize: 1 }
    await assert.rejects(inspectPdfBytes(heapBomb(5_000_000), options), (error) => {
      refusedWith('unreadable')(error)
      assert.match((error as Error).message, /exhausted the memory allowed/)
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
  it('not_pdf naming the format of a ZIP (DOCX), HTML or PNG file, before any reading', async () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [await notAPdf(), /^the file is not a PDF: it is a ZIP archive \(a DOCX/],
      [
        latin1('<!DOCTYPE html><html><body>%PDF-1.7 1 0 obj'),
        /^the file is not a PDF: it is an HTML or XML document$/,
      ],
      [latin1('\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR'), /^the file is not a PDF: it is a PNG image$/],
    ]
    for (const [bytes, message] of cases) {
      await assert.rejects(inspectPdfBytes(bytes), (error) => {
        refusedWith('not_pdf')(error)
        assert.match((error as Error).message, message)
        return true
      })
    }
  })

  it('not_pdf for a file with no %PDF- header in which MuPDF finds no PDF', async () => {
    for (const bytes of [new Uint8Array(), latin1('Dear Sir, please find the contract attached.\n')]) {
      await assert.rejects(inspectPdfBytes(bytes), (error) => {
        refusedWith('not_pdf')(error)
        assert.equal(
          (error as Error).message,
          'the file is not a PDF: it has no %PDF- header and no PDF pages could be read from it',
        )
        return true
      })
    }
  })

  it('password for a PDF that needs a user password, saying so', async () => {
    await assert.rejects(inspectPdfBytes(await encryptedPdf({ userPassword: 'user-secret' })), (error) => {
      refusedWith('password')(error)
      assert.equal(
        (error as Error).message,
        'the PDF is protected by a password; remove the password and send it again',
      )
      return true
    })
  })

  it('certified for a PDF certified against any change (DocMDP level 1), saying why', async () => {
    await assert.rejects(inspectPdfBytes(await certifiedPdf(1)), (error) => {
      refusedWith('certified')(error)
      assert.equal(
        (error as Error).message,
        'the PDF is certified by its author against any change (DocMDP level 1); signing it would break that certification',
      )
      return true
    })
  })

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
      assert.equal((error as Error).message, 'the PDF could not be parsed: cycle in page tree')
      return true
    })
  })

  it('unreadable for a page tree listing the same page twice', async () => {
    const bytes = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ])
    await assert.rejects(inspectPdfBytes(bytes), /lists the same page twice \(pages 1 and 2\)/)
  })

  it('too_many_pages past 2000 pages', async () => {
    const bytes = await pdfOfPages(Array(2001).fill([200, 200]))
    await assert.rejects(inspectPdfBytes(bytes), (error) => {
      refusedWith('too_many_pages')(error)
      assert.equal((error as Error).message, 'the PDF has 2001 pages; at most 2000 are accepted')
      return true
    })
  })

  it('too_many_pages for a tree of 100 000 pages, without walking it', async () => {
    const path = await fileOf(balancedTree(100_000))
    await inspectPdfBytes(await a4())
    const started = performance.now()
    await assert.rejects(inspectPdfFile(path), /has 100000 pages/)
    const ms = performance.now() - started
    // Measured ~30-80 ms (opening the 10 MB file; the count is the root's /Count): a walk of the
    // tree would take seconds more.
    assert.ok(ms < 5000, `${Math.round(ms)} ms`)
  })
})

describe('Flate bombs', () => {
  it('in a content stream (1.1 MB inflating to 1.1 GiB): never inflated, the page measured', async () => {
    const bytes = await flateBomb()
    const rssBefore = process.memoryUsage().rss
    // Intake reads the page tree, never page content.
    const info = await inspectPdfBytes(bytes)
    const grown = process.memoryUsage().rss - rssBefore
    assertSizes(info.pages, [[612, 792]])
    assert.ok(grown < 100 * MB, `RSS grew by ${Math.round(grown / MB)} MB`)
  })

  it('in the object stream holding the page tree: inflated in the child, in constant memory', async () => {
    // 0.3 GiB of spaces before the pages, under a 256 MiB limit: a reader buffering the stream
    // would die; MuPDF streams it (1.1 GiB measured at ~96 MB peak RSS for the whole child).
    const bytes = objectStreamBomb(300)
    const rssBefore = process.memoryUsage().rss
    const info = await inspectPdfBytes(bytes, { memoryLimitBytes: 256 * MiB, poolSize: 1 })
    const grown = process.memoryUsage().rss - rssBefore
    assertSizes(info.pages, [[200, 300]])
    assert.ok(grown < 100 * MB, `RSS grew by ${Math.round(grown / MB)} MB`)
  })
})

describe('the bundled reader (dist/pdf-inspector.mjs, as bin/paraph.mjs builds it)', () => {
  it('loads mupdf from node_modules, without pdf-lib, and answers like the sources', {
    timeout: 120_000,
  }, async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url))
    // Any command bundles every entry point into dist/ first.
    await run(process.execPath, [join(root, 'bin/paraph.mjs'), '--help'], { cwd: root })
    const bundle = join(root, 'dist/pdf-inspector.mjs')
    const source = await readFile(bundle, 'utf8')
    assert.match(source, /from "mupdf"/)
    assert.doesNotMatch(source, /pdf-lib/)
    const files = [
      await fileOf(await encryptedPdf({ userPassword: '' })),
      await fileOf(await encryptedPdf({ userPassword: 'user-secret' })),
      await fileOf(await certifiedPdf(1)),
      await fileOf(await brokenXref()),
    ]
    const input = files.map((path, id) => JSON.stringify({ id, path })).join('\n')
    // Under the server's limit: 512 MiB of data segment, as child-pool.ts starts it.
    const { stdout, stderr } = await runWithInput(
      'prlimit',
      [`--data=${512 * MiB}`, process.execPath, bundle],
      `${input}\n`,
    )
    const [ready, ...answers] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    assert.deepEqual(ready, { ready: true })
    assert.deepEqual(
      answers.map(({ id, ok, reason, encrypted, certification }) => ({
        id,
        ok,
        reason,
        encrypted,
        certification,
      })),
      [
        { id: 0, ok: true, reason: undefined, encrypted: true, certification: undefined },
        { id: 1, ok: false, reason: 'password', encrypted: undefined, certification: undefined },
        { id: 2, ok: true, reason: undefined, encrypted: false, certification: 1 },
        { id: 3, ok: true, reason: undefined, encrypted: false, certification: undefined },
      ],
    )
    // MuPDF's "warning: trying to repair broken xref" and the like stay out of the server's logs.
    assert.equal(stderr, '')
  })
})

/** Runs a command with `input` on its standard input, which it reads to the end. */
function runWithInput(
  command: string,
  args: string[],
  input: string,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(error) : resolve({ stdout, stderr }),
    )
    child.stdin!.end(input)
  })
}

describe('a server fault', () => {
  it('is a plain Error, not a refusal of the file, when the reader cannot start', async () => {
    // 8 MiB of data segment is too little for node to start: it aborts at once.
    const outcome = await inspectPdfBytes(await a4(), { memoryLimitBytes: 8 * 1024 * 1024 }).catch((e) => e)
    assert.ok(outcome instanceof Error && !(outcome instanceof InvalidPdfError), String(outcome))
    assert.match(outcome.message, /PDF inspector could not start|could not run/)
  })
})
