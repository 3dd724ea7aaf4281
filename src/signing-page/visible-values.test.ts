import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { StoredField } from '../documents/document-model.ts'
import { type Holder, valuesAsOf, visibleValues } from './visible-values.ts'

const field = (name: string, role: string, readonly = false): StoredField => ({
  name,
  type: 'text',
  role,
  required: true,
  readonly,
  options: null,
  areas: [{ document: 0, page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }],
})
const holder = (id: string, role: string, status: Holder['status'], values: object, signedAt?: string) => ({
  id,
  account_id: 'acct_1',
  environment: 'test' as const,
  submission_id: 'sub_1',
  role,
  status,
  values: JSON.stringify(values),
  signed_at: signedAt ?? null,
})
const FIELDS = [
  field('Company', 'first'),
  field('Price', 'first', true),
  field('Seats', 'second'),
  field('Notes', 'third'),
]
const shown = (viewer: Holder, everyone: Holder[]) =>
  Object.fromEntries(visibleValues(FIELDS, viewer, everyone).map((v) => [v.field.name, [v.value, v.mine]]))

describe('visibleValues', () => {
  it("shows a signed signer's values to the others, and never a pending signer's editable prefill", () => {
    const first = holder(
      'sbm_1',
      'first',
      'signed',
      { Company: 'Acme', Price: 100 },
      '2026-11-20T09:00:00.000Z',
    )
    const second = holder('sbm_2', 'second', 'pending', { Seats: 12 })
    const third = holder('sbm_3', 'third', 'pending', { Notes: 'draft' })
    assert.deepEqual(shown(second, [first, second, third]), {
      Company: ['Acme', false],
      Price: [100, false],
      Seats: [12, true],
    })
    assert.deepEqual(shown(first, [first, second, third]), { Company: ['Acme', true], Price: [100, true] })
  })

  it('shows pre-signed values, and a read-only value the sender set for a signer still pending', () => {
    const first = holder('sbm_1', 'first', 'pending', { Company: 'Suggested', Price: 250 })
    const third = holder('sbm_3', 'third', 'pre_signed', { Notes: 'agreed' }, '2026-11-19T09:00:00.000Z')
    const second = holder('sbm_2', 'second', 'pending', {})
    assert.deepEqual(shown(second, [first, second, third]), { Price: [250, false], Notes: ['agreed', false] })
  })

  it('names no value of a field nobody filled, and looks names up as own keys only', () => {
    const first = holder('sbm_1', 'first', 'signed', { constructor: 'x', Company: 'Acme' })
    const fields = [...FIELDS, field('constructor', 'second'), field('toString', 'first')]
    const names = visibleValues(fields, holder('sbm_2', 'second', 'pending', {}), [first]).map(
      (v) => v.field.name,
    )
    assert.deepEqual(names, ['Company'])
  })
})

describe('valuesAsOf', () => {
  const created = '2026-11-18T08:00:00.000Z'
  it("is the newest signature among the values shown, the submission's creation without any", () => {
    const early = holder('sbm_1', 'first', 'signed', { Company: 'A' }, '2026-11-20T09:00:00.000Z')
    const late = holder('sbm_3', 'third', 'signed', { Notes: 'B' }, '2026-11-21T17:30:00.000Z')
    const viewer = holder('sbm_2', 'second', 'pending', { Seats: 3 })
    assert.equal(valuesAsOf(visibleValues(FIELDS, viewer, [early, viewer, late]), created), late.signed_at)
    assert.equal(valuesAsOf(visibleValues(FIELDS, viewer, [viewer]), created), created)
  })
})
