// A DTD anywhere in a DOCX is refused by name, in UTF-8 or UTF-16, in any part;
// a Word file's usual XML, and markup merely quoted in its text, pass.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { refuseDtdDeclarations } from './docx-dtd.ts'
import type { RenderError } from './render-error.ts'

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
const DOCUMENT = `${XML_DECLARATION}<w:document xmlns:w="urn:w"><w:body><w:p><w:r><w:t>&lt;!DOCTYPE html&gt; is text here</w:t></w:r></w:p></w:body></w:document>`

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
const files = (entries: Record<string, Buffer | string>) =>
  new Map(Object.entries(entries).map(([name, data]) => [name, Buffer.from(data)]))

function refusedFor(map: Map<string, Buffer>, part: string, what: RegExp): void {
  assert.throws(
    () => refuseDtdDeclarations(map),
    (e: RenderError) =>
      e.reason === 'refused_docx' && e.message.startsWith(`file: ${part} declares `) && what.test(e.message),
  )
}

describe('refuseDtdDeclarations', () => {
  it('passes ordinary parts, and "<!DOCTYPE" written as text (escaped)', () => {
    refuseDtdDeclarations(
      files({
        'word/document.xml': DOCUMENT,
        'word/media/image1.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      }),
    )
  })

  it('refuses a DOCTYPE, with or without an internal subset, in any case, naming the part', () => {
    for (const doctype of [
      '<!DOCTYPE w:document>',
      '<!doctype w:document [ ]>',
      '<!DOCTYPE w:document SYSTEM "file:///etc/passwd">',
    ]) {
      const xml = DOCUMENT.replace(XML_DECLARATION, `${XML_DECLARATION}${doctype}`)
      refusedFor(
        files({ '[Content_Types].xml': '<Types/>', 'word/document.xml': xml }),
        'word/document.xml',
        /document type \(<!DOCTYPE\)/,
      )
    }
  })

  it('refuses an entity declaration wherever it stands, and in a part of any name', () => {
    refusedFor(
      files({ 'word/styles.xml': '<!ENTITY lol "lol"><w:styles/>' }),
      'word/styles.xml',
      /an entity \(<!ENTITY\)/,
    )
    refusedFor(
      files({ 'customXml/item1.bin': `junk <!ENTITY % p SYSTEM "http://x">` }),
      'customXml/item1.bin',
      /<!ENTITY/,
    )
  })

  it('reads UTF-16 parts, little- or big-endian, with or without a byte-order mark', () => {
    const xml = DOCUMENT.replace(
      XML_DECLARATION,
      '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE w:document>',
    )
    refusedFor(new Map([['word/document.xml', utf16le(xml)]]), 'word/document.xml', /DOCTYPE/)
    refusedFor(
      new Map([['word/numbering.xml', Buffer.from(xml, 'utf16le')]]),
      'word/numbering.xml',
      /DOCTYPE/,
    )
    const bigEndian = Buffer.from(`\ufeff${xml}`, 'utf16le').swap16()
    refusedFor(new Map([['word/footnotes.xml', bigEndian]]), 'word/footnotes.xml', /DOCTYPE/)
  })
})
