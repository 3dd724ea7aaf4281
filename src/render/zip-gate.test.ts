import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import {
  bzip2Docx,
  contractDocx,
  encryptedDocx,
  lyingDocx,
  manyEntriesDocx,
  minimalDocx,
  notWordZip,
  tooLargeDeclaredDocx,
  zip64Docx,
  zipBombDocx,
  zipOf,
} from '../../test/fixtures/docx.ts'
import { RenderError } from './render-error.ts'
import { gateDocxZip, readZipDirectory, verifyZipEntries } from './zip-gate.ts'

/** Asserts an invalid_docx refusal whose message starts with `file: ` and matches `pattern`. */
function refused(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof RenderError, String(error))
    assert.equal(error.reason, 'refused_docx')
    assert.match(error.message, /^file: /)
    assert.match(error.message, pattern)
    return true
  })
}

describe('readZipDirectory and verifyZipEntries: a Word document passes', () => {
  it('lists the entries of a DOCX written by the docx package, and every entry inflates as declared', async () => {
    const entries = gateDocxZip(await contractDocx())
    const names = entries.map((entry) => entry.name)
    assert.ok(names.includes('word/document.xml'))
    assert.ok(names.includes('word/media/image1.png'))
  })

  it('accepts stored entries', () => {
    const bytes = zipOf([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>'), method: 0 },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>'), method: 0 },
    ])
    assert.equal(gateDocxZip(bytes).length, 2)
  })
})

describe('readZipDirectory: 422 invalid_docx for what is not a Word ZIP', () => {
  it('refuses a plain text file', () => {
    refused(() => readZipDirectory(Buffer.from('Dear client, please sign.\n')), /not a ZIP archive/)
  })

  it('refuses random bytes and an empty file', () => {
    refused(() => readZipDirectory(randomBytes(4096)), /not a ZIP archive/)
    refused(() => readZipDirectory(Buffer.alloc(0)), /not a ZIP archive/)
  })

  it('refuses a truncated DOCX', async () => {
    const whole = await contractDocx()
    refused(() => readZipDirectory(whole.subarray(0, whole.length >> 1)), /damaged or truncated/)
    // Only the last bytes missing: the EOCD is gone too.
    refused(() => readZipDirectory(whole.subarray(0, whole.length - 10)), /damaged or truncated/)
  })

  it('refuses a ZIP that is not a Word document', () => {
    refused(() => readZipDirectory(notWordZip()), /not a Word document.*word\/document\.xml/)
  })

  it('refuses ZIP64, by its locator or by a count of 0xFFFF', () => {
    refused(() => readZipDirectory(zip64Docx()), /ZIP64/)
    const items = [{ name: 'a', data: Buffer.from('a') }]
    refused(() => readZipDirectory(zipOf(items, { count: 0xffff })), /ZIP64/)
  })

  it('refuses more than 1 000 entries', () => {
    refused(() => readZipDirectory(manyEntriesDocx(1001)), /1001 entries; a DOCX may have at most 1000/)
    assert.equal(readZipDirectory(manyEntriesDocx(1000)).length, 1000)
  })

  it('refuses a declared total above 50 MiB', () => {
    refused(() => readZipDirectory(tooLargeDeclaredDocx()), /more than 50 MiB; it may be a zip bomb/)
  })

  it('refuses encrypted entries and compression methods other than stored and deflate', () => {
    refused(() => readZipDirectory(encryptedDocx()), /encrypted \(entry word\/secret\.xml\)/)
    refused(() => readZipDirectory(bzip2Docx()), /compression method 12/)
  })

  it('refuses a count in the EOCD that does not match the directory', () => {
    const items = [
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ]
    refused(() => readZipDirectory(zipOf(items, { count: 1 })), /more entries than the archive says/)
    refused(() => readZipDirectory(zipOf(items, { count: 3 })), /bad central directory entry/)
  })

  it('refuses two entries of the same name', () => {
    refused(
      () => readZipDirectory(minimalDocx('<w:p/>', [{ name: 'word/document.xml', data: Buffer.from('x') }])),
      /two entries are named word\/document\.xml/,
    )
  })
})

describe('the zip bomb: refused from its directory, nothing inflated', () => {
  it('refuses 200 MiB of zeros in a ~200 KB DOCX in well under a second, without the memory growing', async () => {
    const bomb = await zipBombDocx()
    const rssBefore = process.memoryUsage.rss()
    const started = process.hrtime.bigint()
    refused(() => gateDocxZip(bomb), /expands more than 100 times .* zip bomb/)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    const grown = process.memoryUsage.rss() - rssBefore
    process.stdout.write(`# zip bomb (${bomb.length} bytes → 200 MiB) refused in ${ms.toFixed(2)} ms\n`)
    assert.ok(grown < 100 * 1024 * 1024, `RSS grew by ${grown} bytes`)
  })
})

describe('verifyZipEntries: a directory that lies', () => {
  it('refuses an entry inflating past its declared size, having inflated at most one byte more', () => {
    const bytes = lyingDocx()
    const entries = readZipDirectory(bytes)
    refused(
      () => verifyZipEntries(bytes, entries),
      /lie\.bin inflates past the 1000 bytes its directory declares/,
    )
  })

  it('refuses an entry inflating short of its declared size, or failing its CRC', () => {
    const data = Buffer.from('<w:document/>')
    const base = { name: '[Content_Types].xml', data: Buffer.from('<Types/>') }
    const short = zipOf([base, { name: 'word/document.xml', data, uncompressedSize: data.length + 5 }])
    refused(() => gateDocxZip(short), /inflates to 13 bytes, not 18/)
    const badCrc = zipOf([base, { name: 'word/document.xml', data, crc: 1234 }])
    refused(() => gateDocxZip(badCrc), /fails its CRC check/)
  })

  it('refuses deflate data that is not deflate', () => {
    const bytes = minimalDocx('<w:p/>', [
      {
        name: 'word/x.bin',
        data: Buffer.from('not deflate at all'),
        raw: true,
        uncompressedSize: 20,
        crc: 0,
      },
    ])
    refused(() => gateDocxZip(bytes), /word\/x\.bin does not inflate/)
  })
})
