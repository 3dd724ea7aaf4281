import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { a4, hundredPages } from '../../test/fixtures/pdfs.ts'
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
