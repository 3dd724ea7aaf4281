import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { embedFont, type TextFont } from './fonts.ts'
import { ELLIPSIS, fitLine, truncate, verticalExtent, verticalMetrics, widthAt, wrap } from './text-fit.ts'

let font: TextFont
before(async () => {
  font = await embedFont(await PDFDocument.create(), 'sans')
})

describe('verticalMetrics and verticalExtent', () => {
  it("give DejaVu Sans' ascent and descent, widened by tall accents", () => {
    const { ascent, descent } = verticalMetrics(font)
    assert.ok(Math.abs(ascent - 0.928) < 0.01 && Math.abs(descent + 0.236) < 0.01, `${ascent} ${descent}`)
    assert.deepEqual(verticalExtent(font, 'abc'), { ascent, descent })
    assert.ok(verticalExtent(font, 'Ǻ').ascent > ascent)
  })
})

describe('fitLine', () => {
  it('takes the largest size the height allows when the text is short', () => {
    const extent = verticalMetrics(font)
    const line = fitLine(font, 'OK', 500, 20, extent)
    assert.ok(Math.abs(line.size - 20 / (extent.ascent - extent.descent)) < 1e-9)
    assert.equal(line.text, 'OK')
  })

  it('shrinks a longer text to the width', () => {
    const line = fitLine(font, 'A fairly long company name', 100, 20, verticalMetrics(font))
    assert.equal(line.text, 'A fairly long company name')
    assert.ok(Math.abs(widthAt(font, line.text, line.size) - 100) < 1e-6)
  })

  // issue #21 item 4: widths taken from A4's 595.276 pt cut "Corpus check 42" by a floating-point hair.
  it('never cuts a value that fits at or above the minimum size (A4-derived widths)', () => {
    const extent = verticalMetrics(font)
    const widths = [595.276, 595.276 - 48, 595.276 / 2 - 4, 595.276 / 3 - 4, 595.276 * 0.3 - 4]
    const texts = ['Corpus check', 'Zoë Ångström-Łukasiewicz', 'ИП Иванов', 'Ω 12/03/2025', 'WWW iii']
    let checked = 0
    for (let i = 0; i < 400; i++) {
      for (const [w, base] of widths.entries()) {
        const width = base - (i % 13) * 0.731 - Math.floor(i / 13) * 3.1
        const text = `${texts[(i + w) % texts.length]} ${i}`
        const line = fitLine(font, text, width, 1000, extent, { minSize: 4 })
        if (widthAt(font, text, 4) > width) continue
        checked++
        assert.equal(line.text, text, `cut at width ${width}, size ${line.size}`)
        assert.ok(line.size >= 4 && widthAt(font, line.text, line.size) <= width + 1e-6)
      }
    }
    assert.ok(checked > 1500, `${checked} cases checked`)
  })

  it('stops at the minimum size and truncates with an ellipsis', () => {
    const line = fitLine(font, 'x'.repeat(500), 100, 20, verticalMetrics(font), { minSize: 4 })
    assert.equal(line.size, 4)
    assert.ok(line.text.endsWith(ELLIPSIS))
    assert.ok(widthAt(font, line.text, 4) <= 100)
  })
})

describe('truncate', () => {
  it('keeps an accent with its letter', () => {
    const text = `${'e\u0301'.repeat(40)}`
    const cut = truncate(font, text, 10, 60)
    assert.ok(cut.endsWith(ELLIPSIS))
    assert.ok(!cut.slice(0, -1).endsWith('e'), 'no letter without its combining accent')
  })

  it('returns nothing when not even the ellipsis fits', () => {
    assert.equal(truncate(font, 'abc', 10, 1), '')
  })
})

describe('wrap', () => {
  it('breaks at spaces, keeping each line within the width', () => {
    const text = 'The quick brown fox jumps over the lazy dog '.repeat(5).trim()
    const lines = wrap(font, text, 10, 120)
    assert.ok(lines.length > 3)
    assert.equal(lines.join(' '), text)
    for (const line of lines) assert.ok(widthAt(font, line, 10) <= 120, line)
  })

  it('cuts a word longer than the line, and only that word', () => {
    const hash = 'a'.repeat(64)
    const lines = wrap(font, `sha ${hash} end`, 8, 100)
    assert.equal(lines[0], 'sha', 'the short word before stays whole, on its own line')
    assert.equal(lines.join(''), `sha${hash} end`, 'the hash is cut, the line goes on after it')
    for (const line of lines) assert.ok(widthAt(font, line, 8) <= 100, line)
  })

  it('gives one empty line for empty text', () => {
    assert.deepEqual(wrap(font, '', 8, 100), [''])
  })
})
