import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { inflateZipEntries, readZipDirectory } from './zip-gate.ts'
import { storedZip } from './zip-store.ts'

describe('storedZip', () => {
  it('writes an archive the zip gate reads back whole, UTF-8 names included', () => {
    const files = new Map([
      ['[Content_Types].xml', Buffer.from('<Types/>')],
      ['word/document.xml', Buffer.from('<w:document/>')],
      ['word/media/café.png', Buffer.alloc(0)],
    ])
    const zip = storedZip(files)
    const entries = readZipDirectory(zip)
    assert.deepEqual(
      entries.map((entry) => [entry.name, entry.method]),
      [...files.keys()].map((name) => [name, 0]),
    )
    assert.deepEqual(inflateZipEntries(zip, entries), files)
  })
})
