// How the signing page reads a typed number and writes today's date: a decimal comma or
// point, thousands separators, and nothing else taken as a number; today as YYYY-MM-DD on the
// signer's own clock; the years a date field takes.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseNumber, todayIso, yearInRange } from './page/locale.ts'

describe('parseNumber', () => {
  it('takes a decimal comma or point, and spaces, points or commas between thousands', () => {
    const cases: Array<[string, number]> = [
      ['42', 42],
      ['1250,5', 1250.5],
      ['1250.50', 1250.5],
      ['-3,25', -3.25],
      ['1 250,50', 1250.5],
      ['1\u202f250,50', 1250.5],
      ["1'250.50", 1250.5],
      ['1.250,50', 1250.5],
      ['1,250.50', 1250.5],
      ['1.250.000', 1250000],
      [',5', 0.5],
    ]
    for (const [text, value] of cases) assert.equal(parseNumber(text), value, text)
  })

  it('refuses what is not a number', () => {
    for (const text of ['', 'abc', '12abc', '1e5', '1,2,3,4', '1.250,50,1', '--1', '1.2.3', '0x10']) {
      assert.equal(parseNumber(text), null, text)
    }
  })
})

describe('todayIso and yearInRange', () => {
  it('writes the local calendar date, zero-padded', () => {
    assert.equal(todayIso(new Date(2026, 0, 5, 23, 59)), '2026-01-05')
    assert.equal(todayIso(new Date(1999, 11, 31, 0, 0)), '1999-12-31')
  })

  it('takes the years 1900 to 2200 only', () => {
    assert.ok(yearInRange('1900-01-01'))
    assert.ok(yearInRange('2200-12-31'))
    assert.ok(!yearInRange('1899-12-31'))
    assert.ok(!yearInRange('0000-01-01'))
    assert.ok(!yearInRange('2201-01-01'))
  })
})
