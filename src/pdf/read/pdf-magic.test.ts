import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { hasPdfMagic, otherFormat, readHead } from './pdf-magic.ts'

const at = (offset: number, rest = '1.7\n') =>
  Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from(`%PDF-${rest}`)])
const latin1 = (text: string) => Buffer.from(text, 'latin1')

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

describe('otherFormat', () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ['a DOCX', latin1('PK\x03\x04\x14\x00\x06\x00 word/document.xml %PDF-1.7'), /^a ZIP archive \(a DOCX/],
    ['an empty ZIP', latin1('PK\x05\x06\x00\x00'), /^a ZIP archive$/],
    ['a DOC', latin1('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00'), /older Office document/],
    ['an RTF', latin1('{\\rtf1\\ansi'), /RTF/],
    ['a PNG', latin1('\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR'), /^a PNG image$/],
    ['a JPEG', latin1('\xff\xd8\xff\xe0\x00\x10JFIF'), /^a JPEG image$/],
    ['a GIF', latin1('GIF89a\x01\x00'), /^a GIF image$/],
    ['a TIFF', latin1('II*\x00\x08\x00'), /^a TIFF image$/],
    ['a WebP', latin1('RIFF\x24\x00\x00\x00WEBPVP8 '), /^a WebP image$/],
    ['PostScript', latin1('%!PS-Adobe-3.0\n'), /PostScript/],
    ['a gzip', latin1('\x1f\x8b\x08\x00'), /gzip/],
    ['HTML', latin1('<!DOCTYPE html><html><body>%PDF-1.7'), /^an HTML or XML document$/],
    ['HTML after a BOM and blank lines', latin1('\xef\xbb\xbf\r\n  <html>'), /HTML/],
    ['SVG', latin1('<?xml version="1.0"?><svg/>'), /XML/],
  ]
  for (const [name, bytes, expected] of cases) {
    it(`names ${name}`, () => {
      assert.match(otherFormat(bytes) ?? 'undefined', expected)
    })
  }

  it('is undefined for a PDF, junk before one, a file without a header, and nothing', () => {
    assert.equal(otherFormat(at(0)), undefined)
    assert.equal(otherFormat(latin1(`Content-Type: application/pdf\r\n\r\n%PDF-1.4`)), undefined)
    assert.equal(otherFormat(latin1('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n')), undefined)
    assert.equal(otherFormat(new Uint8Array()), undefined)
  })

  it('looks at the start only: a signature later in the file is not one', () => {
    assert.equal(otherFormat(Buffer.concat([at(0), latin1('PK\x03\x04 <html>')])), undefined)
  })
})

describe('readHead', () => {
  it('reads at most the first 1024 bytes of a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-magic-test-'))
    try {
      await writeFile(join(dir, 'near.pdf'), at(1000))
      await writeFile(join(dir, 'far.pdf'), at(1100))
      await writeFile(join(dir, 'small.pdf'), at(0))
      assert.equal(hasPdfMagic(await readHead(join(dir, 'near.pdf'))), true)
      assert.equal((await readHead(join(dir, 'far.pdf'))).length, 1024)
      assert.equal(hasPdfMagic(await readHead(join(dir, 'far.pdf'))), false)
      assert.deepEqual(await readHead(join(dir, 'small.pdf')), at(0))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
