import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileHasPdfMagic, hasPdfMagic } from './pdf-magic.ts'

const at = (offset: number, rest = '1.7\n') =>
  Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from(`%PDF-${rest}`)])

describe('hasPdfMagic', () => {
  it('accepts %PDF- at the start or after junk, up to the 1024th byte', () => {
    assert.equal(hasPdfMagic(at(0)), true)
    assert.equal(hasPdfMagic(at(3)), true, 'e.g. a UTF-8 BOM')
    assert.equal(hasPdfMagic(at(1019, '')), true, 'the header ends exactly at byte 1024')
  })

  it('refuses a header that starts or ends past the first 1024 bytes', () => {
    assert.equal(hasPdfMagic(at(1020)), false)
    assert.equal(hasPdfMagic(at(5000)), false)
  })

  it('refuses empty input, a bare %PDF without the dash, and other formats', () => {
    assert.equal(hasPdfMagic(new Uint8Array()), false)
    assert.equal(hasPdfMagic(Buffer.from('%PDF')), false)
    assert.equal(hasPdfMagic(Buffer.from('PK\x03\x04')), false)
  })

  it('looks only at the view it is given, not the rest of a shared buffer', () => {
    const shared = at(0)
    assert.equal(hasPdfMagic(shared.subarray(1)), false)
  })
})

describe('fileHasPdfMagic', () => {
  it('answers like hasPdfMagic from the first 1024 bytes of a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-magic-test-'))
    try {
      await writeFile(join(dir, 'near.pdf'), at(1000))
      await writeFile(join(dir, 'far.pdf'), at(1100))
      assert.equal(await fileHasPdfMagic(join(dir, 'near.pdf')), true)
      assert.equal(await fileHasPdfMagic(join(dir, 'far.pdf')), false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
