// docs/api.md#field-areas, field placement: units and page numbering are detected once for the
// whole body, then every area is checked against the real page it lands on and stored as fractions
// with 1-indexed pages.
import { ApiError, fieldError } from '../errors.ts'
import type { PageSize, StoredArea, StoredField } from './document-model.ts'
import type { FieldArea, FieldDeclaration } from './field-schemas.ts'

/** A declared field and the document it was declared on (its index in the body's documents). */
export interface PlacedDeclaration {
  document: number
  field: FieldDeclaration
  /** Where the declaration sits in the body, for messages: `documents[0].fields[2]`. */
  path: string
  /** The role to use when the declaration has none (fields declared on a submitter). */
  inheritedRole?: string
}

export interface PlacementConventions {
  units: 'fractions' | 'points'
  /** 0 when any page in the body is 0 (every page is then read as 0-indexed), else 1. */
  pageBase: 0 | 1
}

// docs/api.md#field-areas rules 2 and 5: global detection over every area of the body.
export function detectConventions(areas: FieldArea[]): PlacementConventions {
  const points = areas.some((a) => a.x > 1 || a.y > 1 || a.w > 1 || a.h > 1)
  const zeroBased = areas.some((a) => a.page === 0)
  return { units: points ? 'points' : 'fractions', pageBase: zeroBased ? 0 : 1 }
}

// Rounding slack: a point-perfect area computed by a client in floating point must not be refused.
const EPSILON = 1e-6

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6
}

function describeArea(a: FieldArea, units: PlacementConventions['units']): string {
  return `page ${a.page}, x ${a.x}, y ${a.y}, w ${a.w}, h ${a.h} ${units === 'points' ? 'points' : 'as fractions'}`
}

function placeArea(
  decl: PlacedDeclaration,
  index: number,
  pages: PageSize[],
  conventions: PlacementConventions,
): StoredArea {
  const area = decl.field.areas[index]!
  const page = area.page + (conventions.pageBase === 0 ? 1 : 0)
  const where = `${decl.path}.areas[${index}] of field "${decl.field.name}"`
  const size = pages[page - 1]
  if (!size) {
    throw new ApiError(
      'invalid_field_area',
      `${where} targets page ${page}${conventions.pageBase === 0 ? ` (page ${area.page} read as 0-indexed)` : ''}, but document ${decl.document} has ${pages.length} page(s).`,
    )
  }
  const [sx, sy] = conventions.units === 'points' ? [size.width, size.height] : [1, 1]
  const fraction = { x: area.x / sx, y: area.y / sy, w: area.w / sx, h: area.h / sy }
  if (fraction.x + fraction.w > 1 + EPSILON || fraction.y + fraction.h > 1 + EPSILON) {
    throw new ApiError(
      'invalid_field_area',
      `${where} (${describeArea(area, conventions.units)}) overflows page ${page} of document ${decl.document}, which is ${size.width} x ${size.height} points (origin top-left, y downward).`,
    )
  }
  return {
    document: decl.document,
    page,
    x: round(fraction.x),
    y: round(fraction.y),
    w: round(fraction.w),
    h: round(fraction.h),
  }
}

/** Declarations → stored fields; throws `invalid_field_area` or `invalid_request` naming the field. */
export function placeFields(declarations: PlacedDeclaration[], documents: PageSize[][]): StoredField[] {
  const conventions = detectConventions(declarations.flatMap((d) => d.field.areas))
  const byName = new Map<string, StoredField>()
  for (const decl of declarations) {
    const { field } = decl
    const role = field.role ?? decl.inheritedRole
    if (!role)
      throw fieldError(
        'invalid_request',
        `${decl.path}.role`,
        `is required (the role of the submitter who fills it).`,
      )
    const type = field.type ?? 'signature'
    const choice = type === 'radio' || type === 'select'
    if (choice && !field.options)
      throw fieldError('invalid_request', `${decl.path}.options`, `is required for a ${type} field.`)
    if (!choice && field.options)
      throw fieldError(
        'invalid_request',
        `${decl.path}.options`,
        `only radio and select fields have options.`,
      )
    const areas = field.areas.map((_, i) => placeArea(decl, i, documents[decl.document]!, conventions))
    const existing = byName.get(field.name)
    if (existing) {
      // The same name twice is one field with more areas, as long as it is the same field.
      if (existing.role !== role || existing.type !== type) {
        throw fieldError(
          'invalid_request',
          `${decl.path}.name`,
          `"${field.name}" is already a ${existing.type} field of role "${existing.role}".`,
        )
      }
      existing.areas.push(...areas)
      continue
    }
    byName.set(field.name, {
      name: field.name,
      type,
      role,
      required: field.required ?? true,
      readonly: field.readonly ?? false,
      options: field.options ?? null,
      areas,
    })
  }
  return [...byName.values()]
}
