import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  defaultRect,
  type EditorField,
  fieldCount,
  freeRect,
  fromDeclarations,
  inRoleOrder,
  nextName,
  nudge,
  onEveryPage,
  resized,
  resizedBy,
  rolesOf,
  snapped,
  spanning,
  toDeclarations,
  withChange,
} from './app/editor/model.ts'

const A4 = { width: 595.28, height: 841.89 }
const field = (over: Partial<EditorField> = {}): EditorField => ({
  key: 'k',
  page: 1,
  x: 0.1,
  y: 0.2,
  w: 0.3,
  h: 0.05,
  name: 'Signature 1',
  type: 'signature',
  role: 'Tenant',
  required: true,
  readonly: false,
  options: [],
  ...over,
})

describe('template editor model', () => {
  it('a drag in any direction spans the rectangle between its ends, kept on the page', () => {
    assert.deepEqual(spanning({ x: 0.5, y: 0.6 }, { x: 0.2, y: 0.4 }), {
      x: 0.2,
      y: 0.4,
      w: 0.3,
      h: 0.19999999999999996,
    })
    const off = spanning({ x: 0.9, y: 0.9 }, { x: 1.4, y: 1.2 })
    assert.ok(off.x + off.w <= 1 && off.y + off.h <= 1)
  })

  it('Add field never stacks: below each field it would cover, back at the default at the foot', () => {
    const first = defaultRect('signature', A4)
    assert.deepEqual(freeRect('signature', A4, []), first)
    const second = freeRect('signature', A4, [first])
    assert.equal(second.x, first.x)
    assert.ok(Math.abs(second.y - (first.y + first.h * 1.5)) < 1e-12, 'below the first, half a height apart')
    const third = freeRect('signature', A4, [first, second])
    assert.ok(third.y > second.y + second.h, 'below the second')
    // A field elsewhere on the page does not move it.
    assert.deepEqual(freeRect('signature', A4, [field({ x: 0.0, y: 0.3, w: 0.05 })]), first)
    // A column of fields down to the foot: back at the default place rather than off the page.
    const column = Array.from({ length: 30 }, (_, i) => ({ ...first, y: first.y + i * first.h }))
    assert.deepEqual(freeRect('signature', A4, column), first)
  })

  it('nudges by points of the page (1 pt, 10 pt) and never off the page', () => {
    const moved = nudge(field(), A4, 1, 0)
    assert.ok(Math.abs(moved.x - (0.1 + 1 / A4.width)) < 1e-12)
    assert.ok(Math.abs(nudge(field(), A4, 0, 10).y - (0.2 + 10 / A4.height)) < 1e-12)
    assert.equal(nudge(field({ x: 0 }), A4, -10, 0).x, 0)
  })

  it('resizes by points from the top left corner (Alt+arrows), never below 4 pt nor off the page', () => {
    const wider = resizedBy(field(), A4, 10, 0)
    assert.ok(Math.abs(wider.w - (0.3 + 10 / A4.width)) < 1e-12 && wider.x === 0.1 && wider.y === 0.2)
    const shorter = resizedBy(field(), A4, 0, -1)
    assert.ok(Math.abs(shorter.h - (0.05 - 1 / A4.height)) < 1e-12 && shorter.w === 0.3)
    assert.ok(Math.abs(resizedBy(field(), A4, -1000, 0).w - 4 / A4.width) < 1e-12, 'at least 4 pt')
    const edge = resizedBy(field({ x: 0.9, w: 0.05 }), A4, 1000, 0)
    assert.ok(Math.abs(edge.x + edge.w - 1) < 1e-12 && edge.x === 0.9, 'up to the page edge, not moved')
  })

  it('resizes from a corner, the opposite corner staying', () => {
    const r = resized(field(), 'nw', -0.05, -0.01)
    assert.ok(Math.abs(r.x - 0.05) < 1e-12 && Math.abs(r.y - 0.19) < 1e-12)
    assert.ok(Math.abs(r.x + r.w - 0.4) < 1e-12 && Math.abs(r.y + r.h - 0.25) < 1e-12)
    const se = resized(field(), 'se', 0.1, 0)
    assert.ok(Math.abs(se.w - 0.4) < 1e-12 && se.x === 0.1)
  })

  it('snaps an edge or centre within the threshold onto another field and shows the line', () => {
    const other = { x: 0.5, y: 0.5, w: 0.2, h: 0.1 }
    const near = snapped({ x: 0.503, y: 0.1, w: 0.1, h: 0.05 }, [other], 0.005, 0.005)
    assert.equal(near.rect.x, 0.5)
    assert.deepEqual(near.guides, { x: [0.5], y: [] })
    const far = snapped({ x: 0.52, y: 0.1, w: 0.1, h: 0.05 }, [other], 0.005, 0.005)
    assert.equal(far.rect.x, 0.52)
    assert.deepEqual(far.guides, { x: [], y: [] })
  })

  it('copies a field onto every other page as areas of the same field, saved as one field', () => {
    const fields = onEveryPage([field()], field(), 3)
    assert.deepEqual(
      fields.map((f) => [f.page, f.name, f.x]),
      [
        [1, 'Signature 1', 0.1],
        [2, 'Signature 1', 0.1],
        [3, 'Signature 1', 0.1],
      ],
    )
    assert.equal(new Set(fields.map((f) => f.key)).size, 3)
    assert.equal(fieldCount(fields), 1)
    const [declared, ...others] = toDeclarations(fields)
    assert.equal(others.length, 0)
    assert.deepEqual(
      declared!.areas.map((a) => a.page),
      [1, 2, 3],
    )
    assert.equal(onEveryPage(fields, fields[0]!, 3).length, 3, 'a page that has an area gets no second one')
  })

  it('a change of where one area is moves that area only; a change of what the field is changes all its areas', () => {
    const fields = onEveryPage([field(), field({ key: 'o', name: 'Other' })], field(), 2)
    const copy = fields.find((f) => f.page === 2)!
    const moved = withChange(fields, copy.key, { x: 0.5 })
    assert.deepEqual(
      moved.map((f) => f.x),
      [0.1, 0.1, 0.5],
    )
    const renamed = withChange(fields, copy.key, { name: 'Initials', required: false })
    assert.deepEqual(
      renamed.map((f) => [f.name, f.required]),
      [
        ['Initials', false],
        ['Other', true],
        ['Initials', false],
      ],
    )
  })

  it("orders the fields by the editor's roles, keeping their order within a role", () => {
    const fields = [
      field({ key: '1', name: 'A', role: 'Tenant' }),
      field({ key: '2', name: 'B', role: 'Landlord' }),
      field({ key: '3', name: 'C', role: 'Tenant' }),
      field({ key: '4', name: 'D', role: 'Witness' }),
    ]
    assert.deepEqual(
      inRoleOrder(fields, ['Landlord', 'Tenant']).map((f) => f.name),
      ['B', 'A', 'C', 'D'],
    )
    assert.deepEqual(rolesOf(inRoleOrder(fields, ['Witness', 'Landlord', 'Tenant'])), [
      'Witness',
      'Landlord',
      'Tenant',
    ])
  })

  it('names a new field with the first free number', () => {
    assert.equal(nextName([field(), field({ name: 'Signature 3' })], 'Signature'), 'Signature 2')
  })

  it('declares the fields as POST /v1/templates takes them: options only for radio and select', () => {
    const [signature, radio] = toDeclarations([
      field({ options: ['ignored'] }),
      field({ type: 'radio', name: 'Choice', options: ['Yes', '', 'No'] }),
    ])
    assert.deepEqual(signature, {
      name: 'Signature 1',
      type: 'signature',
      role: 'Tenant',
      required: true,
      readonly: false,
      areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.3, h: 0.05 }],
    })
    assert.deepEqual(radio?.options, ['Yes', 'No'])
  })

  it('declared fields (from tags) become one editor field per area, saved back as one field with its areas', () => {
    const fields = fromDeclarations(
      [
        {
          name: 'Initials',
          type: 'initials',
          role: 'B',
          areas: [
            { page: 1, x: 0.8, y: 0.9, w: 0.1, h: 0.04 },
            { page: 2, x: 0.8, y: 0.9, w: 0.1, h: 0.04 },
          ],
        },
        { name: 'Signature', areas: [{ page: 2, x: 0.1, y: 0.5, w: 0.3, h: 0.05 }] },
      ],
      'Signer',
    )
    assert.deepEqual(
      fields.map((f) => [f.name, f.type, f.role, f.page, f.required]),
      [
        ['Initials', 'initials', 'B', 1, true],
        ['Initials', 'initials', 'B', 2, true],
        ['Signature', 'signature', 'Signer', 2, true],
      ],
    )
    assert.deepEqual(rolesOf(fields), ['B', 'Signer'])
    assert.deepEqual(toDeclarations(fields)[0]!.areas, [
      { page: 1, x: 0.8, y: 0.9, w: 0.1, h: 0.04 },
      { page: 2, x: 0.8, y: 0.9, w: 0.1, h: 0.04 },
    ])
    assert.equal(toDeclarations(fields).length, 2)
  })
})
