import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { usageMonth } from './usage-month.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')

describe('usageMonth', () => {
  it('defaults to the current UTC month, its days up to today', () => {
    const m = usageMonth(undefined, NOW)
    assert.equal(m.month, '2026-11')
    assert.deepEqual(m.range, { from: '2026-11-01', to: '2026-12-01' })
    assert.equal(m.days.length, 22)
    assert.equal(m.days[0], '2026-11-01')
    assert.equal(m.days.at(-1), '2026-11-22')
  })

  it('the current month in UTC whatever the local offset: 23:30 UTC on Dec 31 is still December', () => {
    const m = usageMonth(undefined, new Date('2026-12-31T23:30:00.000-00:00'))
    assert.equal(m.month, '2026-12')
    assert.equal(m.days.length, 31)
    const next = usageMonth(undefined, new Date('2027-01-01T00:30:00.000+01:00'))
    assert.equal(next.month, '2026-12', '00:30 in Paris on Jan 1 is still Dec 31 in UTC')
  })

  it('months at year ends: December ends at the next January, January starts at its 1st', () => {
    assert.deepEqual(usageMonth('2025-12', NOW).range, {
      from: '2025-12-01',
      to: '2026-01-01',
    })
    assert.equal(usageMonth('2025-12', NOW).days.at(-1), '2025-12-31')
    assert.deepEqual(usageMonth('2026-01', NOW).range, {
      from: '2026-01-01',
      to: '2026-02-01',
    })
  })

  it('every day of a past month: 28, 29, 30 or 31', () => {
    assert.equal(usageMonth('2026-02', NOW).days.length, 28)
    assert.equal(usageMonth('2024-02', NOW).days.length, 29)
    assert.equal(usageMonth('2026-04', NOW).days.length, 30)
    assert.equal(usageMonth('2026-10', NOW).days.length, 31)
  })

  it('a month still to come has no day yet', () => {
    assert.deepEqual(usageMonth('2026-12', NOW).days, [])
    assert.deepEqual(usageMonth('2030-01', NOW).days, [])
  })

  for (const bad of [
    '2026-13',
    '2026-00',
    '2026-1',
    '26-11',
    '2026/11',
    '2026-11-01',
    '',
    ' 2026-11',
    '1969-12',
  ]) {
    it(`invalid_month for "${bad}", naming the expected format`, () => {
      assert.throws(
        () => usageMonth(bad, NOW),
        (e) => e instanceof ApiError && e.code === 'invalid_month' && /YYYY-MM/.test(e.message),
      )
    })
  }
})
