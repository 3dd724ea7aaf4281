import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { StoredField } from './document-model.ts'
import { MAX_IMAGE_BYTES, valueProblem } from './field-values.ts'

const field = (type: StoredField['type'], options: string[] | null = null): StoredField => ({
  name: 'F',
  type,
  role: 'r',
  required: true,
  readonly: false,
  options,
  areas: [],
})

export const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

describe('valueProblem', () => {
  it('accepts the value of each type', () => {
    assert.equal(valueProblem(field('signature'), TINY_PNG), null)
    assert.equal(valueProblem(field('initials'), TINY_PNG), null)
    assert.equal(valueProblem(field('date'), '2026-02-28'), null)
    assert.equal(valueProblem(field('text'), 'hello'), null)
    assert.equal(valueProblem(field('number'), 12.5), null)
    assert.equal(valueProblem(field('checkbox'), false), null)
    assert.equal(valueProblem(field('radio', ['a', 'b']), 'b'), null)
    assert.equal(valueProblem(field('select', ['x']), 'x'), null)
  })

  it('refuses wrong values with a reason', () => {
    assert.match(valueProblem(field('signature'), 'data:image/jpeg;base64,AAAA')!, /PNG data URL/)
    assert.match(
      valueProblem(
        field('signature'),
        `data:image/png;base64,${Buffer.from('not a png').toString('base64')}`,
      )!,
      /not a PNG/,
    )
    const big = `data:image/png;base64,${Buffer.alloc(MAX_IMAGE_BYTES + 1).toString('base64')}`
    assert.match(valueProblem(field('signature'), big)!, /at most 524288 bytes/)
    assert.match(valueProblem(field('date'), '2026-02-30')!, /YYYY-MM-DD/)
    assert.match(valueProblem(field('date'), '26-02-01')!, /YYYY-MM-DD/)
    assert.ok(valueProblem(field('number'), '12'))
    assert.ok(valueProblem(field('number'), Number.NaN))
    assert.ok(valueProblem(field('checkbox'), 'true'))
    assert.match(valueProblem(field('radio', ['a', 'b']), 'c')!, /one of "a", "b"/)
    assert.ok(valueProblem(field('text'), 5))
  })
})
