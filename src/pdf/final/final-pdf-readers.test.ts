import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { a4, hundredPages } from '../../../test/fixtures/pdfs.ts'
import { FinalPdfError } from './final-pdf-error.ts'
import { checkWithReaders } from './final-pdf-readers.ts'

describe('checkWithReaders: qpdf and poppler read the final before it counts', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-readers-'))
  })
  after(() => rm(dir, { recursive: true, force: true }))

  const file = async (name: string, bytes: Uint8Array) => {
    const path = join(dir, name)
    await writeFile(path, bytes)
    return path
  }

  it('passes a PDF both read with the expected pages', async () => {
    await checkWithReaders(await file('a4.pdf', await a4()), 1)
    await checkWithReaders(await file('100.pdf', await hundredPages()), 100)
  })

  it('fails, in a sentence, a file they cannot read or whose pages differ', async () => {
    const pdf = await a4()
    const unreadable = await file('cut.pdf', pdf.subarray(0, 40))
    await assert.rejects(
      checkWithReaders(unreadable, 1),
      (error: Error) =>
        error instanceof FinalPdfError &&
        error.message ===
          'the final PDF failed its own check (a PDF reader could not read it); it was not kept' &&
        /qpdf exited/.test(error.detail ?? ''),
    )
    await assert.rejects(checkWithReaders(await file('one.pdf', pdf), 2), FinalPdfError)
  })
})

describe('checkWithReaders: the readers shell', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-readers-shell-'))
  })
  after(() => rm(dir, { recursive: true, force: true }))

  it('answers several checks at once, each with its own file', async () => {
    const one = join(dir, 'one.pdf')
    const hundred = join(dir, 'hundred.pdf')
    await writeFile(one, await a4())
    await writeFile(hundred, await hundredPages())
    const checks = [1, 100, 1, 100, 1].map((pages) => checkWithReaders(pages === 1 ? one : hundred, pages))
    await Promise.all(checks)
    await assert.rejects(checkWithReaders(join(dir, 'absent.pdf'), 1), FinalPdfError)
    await checkWithReaders(one, 1)
  })

  it('counts the pages poppler reports, not a title written to look like its output', async () => {
    const doc = await PDFDocument.load(await a4())
    doc.setTitle('Contract\nPages:          7\npdfinfo 0\nPages: 7')
    const path = join(dir, 'title.pdf')
    await writeFile(path, await doc.save())
    await checkWithReaders(path, 1)
    await assert.rejects(checkWithReaders(path, 7), FinalPdfError)
  })
})

describe('checkWithReaders: a reader that hangs', () => {
  it('fails the check after its timeout, kills the reader, and the next check runs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-readers-hang-'))
    try {
      // Opening a FIFO for reading blocks until a writer comes: qpdf waits forever.
      const fifo = join(dir, 'hangs.pdf')
      execFileSync('mkfifo', [fifo])
      await assert.rejects(
        checkWithReaders(fifo, 1, 300),
        (error: Error) =>
          error instanceof FinalPdfError && /did not answer within 300 ms/.test(error.detail ?? ''),
      )
      const pdf = join(dir, 'a4.pdf')
      await writeFile(pdf, await a4())
      await checkWithReaders(pdf, 1)
      // No qpdf is left waiting on the FIFO.
      const left = execFileSync('ps', ['-eo', 'args']).toString().split('\n')
      assert.equal(
        left.filter((line) => line.includes(fifo)).length,
        0,
        left.filter((l) => l.includes(fifo)).join('\n'),
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
