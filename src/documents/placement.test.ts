import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import type { FieldDeclaration } from './field-schemas.ts'
import { detectConventions, type PlacedDeclaration, placeFields } from './placement.ts'

const A4 = { width: 595, height: 842 }
const LETTER = { width: 612, height: 792 }

function decl(
  field: Partial<FieldDeclaration> & Pick<FieldDeclaration, 'areas'>,
  document = 0,
): PlacedDeclaration {
  return {
    document,
    path: `documents[${document}].fields[0]`,
    field: { name: 'Sig', role: 'signer', ...field },
  }
}

function refusal(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('placement (docs/api.md#field-areas)', () => {
  it('reads fractions as fractions and stores them unchanged, 1-indexed', () => {
    const [field] = placeFields([decl({ areas: [{ page: 1, x: 0.6, y: 0.85, w: 0.3, h: 0.05 }] })], [[A4]])
    assert.deepEqual(field!.areas, [{ document: 0, page: 1, x: 0.6, y: 0.85, w: 0.3, h: 0.05 }])
    assert.equal(field!.type, 'signature')
    assert.equal(field!.required, true)
  })

  it('reads the whole body in points when any value exceeds 1 (rule 7 equivalence)', () => {
    const [field] = placeFields([decl({ areas: [{ page: 1, x: 357, y: 716, w: 178, h: 42 }] })], [[A4]])
    const a = field!.areas[0]!
    assert.ok(Math.abs(a.x - 0.6) < 0.001 && Math.abs(a.y - 0.85) < 0.001)
    assert.ok(Math.abs(a.w - 0.3) < 0.001 && Math.abs(a.h - 0.05) < 0.001)
  })

  it('detects units globally: one point value makes a fraction elsewhere a point', () => {
    const fields = placeFields(
      [
        decl({ name: 'A', areas: [{ page: 1, x: 100, y: 100, w: 100, h: 20 }] }),
        decl({ name: 'B', areas: [{ page: 1, x: 0.5, y: 0.5, w: 0.3, h: 0.05 }] }),
      ],
      [[A4]],
    )
    assert.ok(fields[1]!.areas[0]!.x < 0.001, '0.5 read as half a point')
  })

  it('detects 0-indexed pages globally: any page 0 shifts every page by one', () => {
    assert.deepEqual(detectConventions([{ page: 0, x: 0, y: 0, w: 0.1, h: 0.1 }]).pageBase, 0)
    const fields = placeFields(
      [
        decl({ name: 'A', areas: [{ page: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }),
        decl({ name: 'B', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }),
      ],
      [[A4, A4]],
    )
    assert.equal(fields[0]!.areas[0]!.page, 1)
    assert.equal(fields[1]!.areas[0]!.page, 2, 'the mixed-up "1" lands on page 2')
  })

  it('checks each area against the size of its own page', () => {
    const ok = placeFields([decl({ areas: [{ page: 2, x: 0, y: 742, w: 612, h: 50 }] })], [[A4, LETTER]])
    assert.equal(ok[0]!.areas[0]!.y + ok[0]!.areas[0]!.h, 1)
    const error = refusal(() =>
      placeFields([decl({ areas: [{ page: 1, x: 0, y: 742, w: 612, h: 50 }] })], [[A4, LETTER]]),
    )
    assert.equal(error.code, 'invalid_field_area')
    assert.match(error.message, /field "Sig"/)
    assert.match(error.message, /595 x 842 points/)
    assert.match(error.message, /page 1/)
  })

  it('422 invalid_field_area for a missing page, naming the page count', () => {
    const error = refusal(() =>
      placeFields([decl({ areas: [{ page: 3, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] })], [[A4, A4]]),
    )
    assert.equal(error.code, 'invalid_field_area')
    assert.match(error.message, /has 2 page\(s\)/)
  })

  it('422 invalid_field_area for fractions past the edge', () => {
    const error = refusal(() =>
      placeFields([decl({ areas: [{ page: 1, x: 0.8, y: 0.1, w: 0.3, h: 0.1 }] })], [[A4]]),
    )
    assert.equal(error.code, 'invalid_field_area')
  })

  it('inherits the submitter role, requires a role otherwise, and checks options', () => {
    const inherited = placeFields(
      [
        {
          ...decl({ areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }] }),
          field: { name: 'X', areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }] },
          inheritedRole: 'buyer',
        },
      ],
      [[A4]],
    )
    assert.equal(inherited[0]!.role, 'buyer')
    const noRole = refusal(() =>
      placeFields(
        [
          {
            document: 0,
            path: 'documents[0].fields[4]',
            field: { name: 'X', areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }] },
          },
        ],
        [[A4]],
      ),
    )
    assert.equal(
      noRole.message,
      'documents[0].fields[4].role: is required (the role of the submitter who fills it).',
    )
    assert.equal(
      refusal(() =>
        placeFields([decl({ type: 'radio', areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }] })], [[A4]]),
      ).code,
      'invalid_request',
    )
    assert.equal(
      refusal(() =>
        placeFields(
          [decl({ type: 'text', options: ['a'], areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }] })],
          [[A4]],
        ),
      ).code,
      'invalid_request',
    )
  })

  it('merges areas of a repeated field name, refusing a clash of role or type', () => {
    const area = { page: 1, x: 0, y: 0, w: 0.1, h: 0.1 }
    const merged = placeFields([decl({ areas: [area] }), decl({ areas: [area] }, 1)], [[A4], [A4]])
    assert.equal(merged.length, 1)
    assert.deepEqual(
      merged[0]!.areas.map((a) => a.document),
      [0, 1],
    )
    assert.equal(
      refusal(() => placeFields([decl({ areas: [area] }), decl({ role: 'other', areas: [area] })], [[A4]]))
        .code,
      'invalid_request',
    )
  })
})
