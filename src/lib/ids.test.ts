import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isId, randomBase62, randomDigits, randomIds, requestIdSource } from './ids.ts'

describe('ids', () => {
  it('makes prefix_ + 24 base62 characters', () => {
    const id = randomIds.next('sub')
    assert.match(id, /^sub_[0-9A-Za-z]{24}$/)
    assert.ok(isId('sub', id))
  })

  it('never repeats across many draws and uses the whole alphabet', () => {
    const seen = new Set<string>()
    const chars = new Set<string>()
    for (let i = 0; i < 5000; i++) {
      const id = randomBase62(24)
      seen.add(id)
      for (const c of id) chars.add(c)
    }
    assert.equal(seen.size, 5000)
    assert.equal(chars.size, 62)
  })

  it('draws decimal digits evenly (e-mail codes)', () => {
    const counts = new Array<number>(10).fill(0)
    for (let i = 0; i < 2000; i++) {
      const code = randomDigits(6)
      assert.match(code, /^[0-9]{6}$/)
      for (const c of code) counts[Number(c)]!++
    }
    // 12 000 digits: each is expected 1 200 times; 1 000–1 400 is more than 5 standard deviations wide.
    for (const n of counts) assert.ok(n > 1000 && n < 1400, counts.join())
  })

  it('refuses other prefixes, lengths and characters', () => {
    const body = 'a'.repeat(24)
    assert.ok(isId('tpl', `tpl_${body}`))
    assert.equal(isId('tpl', `sub_${body}`), false)
    assert.equal(isId('tpl', `tpl_${body}a`), false)
    assert.equal(isId('tpl', `tpl_${'a'.repeat(23)}-`), false)
    assert.equal(isId('tpl', `tpl_${body}\n`), false)
  })
})

describe('requestIdSource', () => {
  it('makes distinct req_ ids in order within a process and apart between processes', () => {
    const next = requestIdSource()
    const ids = Array.from({ length: 100 }, () => next())
    for (const id of ids) assert.ok(isId('req', id), id)
    assert.equal(new Set(ids).size, 100)
    assert.deepEqual([...ids].sort(), ids)
    assert.notEqual(requestIdSource()().slice(0, 14), ids[0]!.slice(0, 14))
  })
})

describe('nextSortable', () => {
  it('sorts in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => randomIds.nextSortable('evt'))
    for (const id of ids) assert.ok(isId('evt', id), id)
    assert.deepEqual([...ids].sort(), ids)
    assert.equal(new Set(ids).size, 500)
  })
})
