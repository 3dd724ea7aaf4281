// The values of a signer's `sign` (docs/api.md#signing), checked against the signer's own fields:
// every value is for a field of this signer that is not read-only, of the field's type (PNG data
// URLs read to their pixels, real calendar dates, options of the field); every required field of
// the signer ends up with a value. Client-supplied names are only matched against the fields, never
// looked up on an object.
import type { StoredField } from '../documents/document-model.ts'
import {
  dateRangeProblem,
  type FieldValue,
  pngDataUrlBytes,
  valueProblem,
} from '../documents/field-values.ts'
import { checkPng, PngError } from '../documents/png-check.ts'
import type { StoredValues } from '../documents/stored-values.ts'
import { ApiError, fieldError } from '../errors.ts'
import { own } from '../lib/own.ts'

/** A checked image, ready to be stored. */
export interface SignedImage {
  field: string
  png: Buffer
  width: number
  height: number
}

export interface CheckedValues {
  plain: Record<string, FieldValue>
  images: SignedImage[]
}

const invalid = (name: string, problem: string) =>
  fieldError('invalid_field_value', `values.${name}`, `${problem}.`)

function fieldFor(fields: StoredField[], role: string, name: string): StoredField {
  const field = fields.find((f) => f.name === name)
  if (!field) {
    const mine = fields.filter((f) => f.role === role).map((f) => `"${f.name}"`)
    throw invalid(name, `no such field (your fields: ${mine.join(', ') || 'none'})`)
  }
  if (field.role !== role) throw invalid(name, `this field is for the "${field.role}" signer, not for you`)
  if (field.readonly) throw invalid(name, 'this field is read-only')
  return field
}

/** Every value checked by type; images read to their pixels. Throws invalid_field_value. */
export async function checkSignValues(
  fields: StoredField[],
  role: string,
  values: Record<string, FieldValue>,
): Promise<CheckedValues> {
  const plain: Array<[string, FieldValue]> = []
  const images: SignedImage[] = []
  for (const [name, value] of Object.entries(values)) {
    const field = fieldFor(fields, role, name)
    const problem = valueProblem(field, value) ?? dateRangeProblem(field, value)
    if (problem) throw invalid(name, problem)
    if (field.type !== 'signature' && field.type !== 'initials') {
      plain.push([name, value])
      continue
    }
    const png = pngDataUrlBytes(value)!
    try {
      const { width, height } = await checkPng(png)
      images.push({ field: name, png, width, height })
    } catch (error) {
      if (error instanceof PngError) throw invalid(name, `the image ${error.message}`)
      throw error
    }
  }
  // fromEntries defines each name as an own key, whatever it is called.
  return { plain: Object.fromEntries(plain), images }
}

/**
 * The values of a signer's saved progress (docs/api.md#saving-progress): the same fields and the
 * same checks of each value as `sign`, a null for a field emptied, and nothing required. Images are
 * not read to their pixels here: they go back only to the signer who sent them, and `sign` reads
 * them before anything is stored for good. Throws invalid_field_value.
 */
export function checkProgressValues(
  fields: StoredField[],
  role: string,
  values: Record<string, FieldValue | null>,
): void {
  for (const [name, value] of Object.entries(values)) {
    const field = fieldFor(fields, role, name)
    const problem = value === null ? null : (valueProblem(field, value) ?? dateRangeProblem(field, value))
    if (problem) throw invalid(name, problem)
  }
}

/** A required field is filled when it has a value; a required checkbox must be checked (consent). */
function filled(field: StoredField, value: unknown): boolean {
  return field.type === 'checkbox' ? value === true : value !== undefined && value !== ''
}

/** 422 missing_required_fields naming every required field of `role` left without a value. */
export function checkRequired(fields: StoredField[], role: string, values: StoredValues): void {
  const missing = fields.filter((f) => f.role === role && f.required && !filled(f, own(values, f.name)))
  if (missing.length > 0) {
    throw new ApiError(
      'missing_required_fields',
      `Required field${missing.length > 1 ? 's' : ''} without a value: ${missing.map((f) => `"${f.name}"`).join(', ')}.`,
    )
  }
}
