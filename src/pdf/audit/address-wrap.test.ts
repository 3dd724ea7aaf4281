import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { embedFont } from '../text/fonts.ts'
import { widthAt } from '../text/text-fit.ts'
import { wrapAtBoundaries } from './address-wrap.ts'

const doc = await PDFDocument.create()
const sans = await embedFont(doc, 'sans')
const mono = await embedFont(doc, 'mono')
const HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
const LONG_EMAIL = 'anna.petrova.procurement-department@very-long-subsidiary-name.example.com'

describe('wrapAtBoundaries', () => {
  it('breaks a long e-mail address only after "@" or a dot, each line within the width', () => {
    for (const width of [130, 200, 260]) {
      const lines = wrapAtBoundaries(sans, LONG_EMAIL, 8.5, width)
      assert.ok(lines.length > 1, `${width}: ${lines}`)
      assert.equal(lines.join(''), LONG_EMAIL)
      for (const line of lines.slice(0, -1)) assert.match(line, /[@.]$/, `${width}: ${lines.join(' | ')}`)
      for (const line of lines) assert.ok(widthAt(sans, line, 8.5) <= width, `${line} fits ${width}`)
    }
  })

  it('breaks an address inside a sentence at its boundaries, the words around it at spaces', () => {
    const text = `Signed by Анна Петрова (${LONG_EMAIL}) from 203.0.113.11 through the signing link.`
    const lines = wrapAtBoundaries(sans, text, 8, 150)
    assert.equal(lines.join(' ').replace(/([@.]) /g, '$1'), text.replace(/([@.]) /g, '$1'))
    const addressLines = lines.filter((l) => /[@.]$/.test(l) && !l.endsWith('link.'))
    assert.ok(addressLines.length >= 2, lines.join(' | '))
    assert.ok(
      lines.includes('203.0.113.11') || lines.some((l) => / 203\.0\.113\.11( |$)|^203\.0\.113\.11 /.test(l)),
    )
  })

  it('falls back to "-" when a dotted piece is still too long, never cutting a word in the middle', () => {
    const lines = wrapAtBoundaries(sans, 'procurement-department-of-the-north@example.com', 8.5, 70)
    assert.equal(lines.join(''), 'procurement-department-of-the-north@example.com')
    for (const line of lines.slice(0, -1)) assert.match(line, /[-@.]$/, lines.join(' | '))
  })

  it('breaks a hash between fixed groups of 16 hex digits', () => {
    for (const width of [80, 130, 200]) {
      const lines = wrapAtBoundaries(mono, HASH, 7, width)
      assert.equal(lines.join(''), HASH)
      for (const line of lines) assert.equal(line.length % 16, 0, `${width}: ${lines.join(' | ')}`)
    }
    assert.deepEqual(wrapAtBoundaries(mono, HASH, 7, 400), [HASH])
  })

  it('breaks an id after its prefix, an IP never', () => {
    assert.deepEqual(wrapAtBoundaries(mono, 'sbm_Ab3dEf6hIj9kLm2nOp5qRs8t', 8, 125), [
      'sbm_',
      'Ab3dEf6hIj9kLm2nOp5qRs8t',
    ])
    assert.deepEqual(wrapAtBoundaries(sans, 'from 203.0.113.7', 8, 50), ['from', '203.0.113.7'])
    assert.deepEqual(wrapAtBoundaries(sans, 'from 2001:db8::8a2e:370:7334', 8, 110), [
      'from',
      '2001:db8::8a2e:370:7334',
    ])
  })

  it('cuts between characters only a piece wider than the line with no boundary at all', () => {
    const lines = wrapAtBoundaries(sans, `Mozilla/5.0 ${'X'.repeat(5000)}`, 7, 200)
    assert.equal(lines[0], 'Mozilla/5.0')
    assert.ok(lines.length > 10)
  })
})
