import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import {
  afterJunk,
  cyclicPageTree,
  flateBomb,
  forgedInfoPdf,
  garbagePdf,
  notAPdf,
  truncatedPdf,
} from '../../../test/fixtures/hostile-pdfs.ts'
import {
  assertSizes,
  balancedTree,
  fileOf,
  inheritingPdf,
  latin1,
  MB,
  MiB,
  objectStreamBomb,
  onePage,
  popplerSizes,
  refusedWith,
  removeTestFiles,
  testFilesDir,
} from '../../../test/fixtures/inspect-helpers.ts'
import {
  brokenXref,
  certifiedPdf,
  encryptedPdf,
  hugeObjectNumbers,
  pageTreeRootIsPage,
  pageWithoutMediaBox,
  pdfWithoutHeader,
  signedPdf,
} from '../../../test/fixtures/pdf-features.ts'
import {
  a4,
  a4Landscape,
  croppedPage,
  hundredPages,
  legal,
  letter,
  pdfOfPages,
  rotatedPage,
} from '../../../test/fixtures/pdfs.ts'
import { rawPdf } from '../../../test/fixtures/raw-pdf.ts'
import { inspectPdfBytes, inspectPdfFile } from './inspect-pdf.ts'

after(removeTestFiles)

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

describe('the inspector child', () => {
  it('starts from the sources with a cold tsx cache, under its memory limit', async () => {
    // tsx keeps its cache under the temporary folder: a fresh one is a fresh checkout's (CI).
    // Compiling without the cache once started esbuild's worker thread, a second isolate whose
    // 510 MiB code range Node.js 24 counts against the child's limit: SIGTRAP at start, 500.
    const fresh = await mkdtemp(join(tmpdir(), 'paraph-cold-'))
    const saved = process.env.TMPDIR
    process.env.TMPDIR = fresh
    try {
      // A limit of its own: a pool of its own, whose children start after TMPDIR changed.
      const info = await inspectPdfBytes(await a4(), { memoryLimitBytes: 512 * MiB + 4096, poolSize: 1 })
      assert.equal(info.pageCount, 1)
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
      await rm(fresh, { recursive: true, force: true })
    }
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
      assert.ok(!message.includes(testFilesDir()) && message.length < 200, message)
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
