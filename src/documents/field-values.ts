// What a value must look like for each field type (`sign` in docs/api.md#signing): used for
// prefilled values now and for signing later, so both accept exactly the same things.
import { LIMITS } from '../limits.ts'
import type { StoredField } from './document-model.ts'

export type FieldValue = string | number | boolean

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/
export const MAX_IMAGE_BYTES = 512 * 1024
export const MAX_TEXT_LENGTH = 1000

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

/** The bytes of a PNG data URL, or null when `value` is not one. */
export function pngDataUrlBytes(value: unknown): Buffer | null {
  const match = typeof value === 'string' ? PNG_DATA_URL.exec(value) : null
  return match ? Buffer.from(match[1]!, 'base64') : null
}

function imageProblem(value: unknown): string | null {
  const bytes = pngDataUrlBytes(value)
  if (!bytes) return 'must be a PNG data URL (data:image/png;base64,…)'
  if (bytes.length > MAX_IMAGE_BYTES) return `is ${bytes.length} bytes; at most ${MAX_IMAGE_BYTES} bytes`
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') return 'is not a PNG image'
  return null
}

/** Why `value` cannot fill `field`, or null when it can. */
export function valueProblem(field: StoredField, value: unknown): string | null {
  switch (field.type) {
    case 'signature':
    case 'initials':
      return imageProblem(value)
    case 'date':
      return typeof value === 'string' && isDate(value) ? null : 'must be a date as YYYY-MM-DD'
    case 'text':
      return typeof value === 'string' && value.length <= MAX_TEXT_LENGTH
        ? null
        : `must be a string of at most ${MAX_TEXT_LENGTH} characters`
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a JSON number'
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false'
    case 'radio':
    case 'select':
      return typeof value === 'string' && field.options?.includes(value)
        ? null
        : `must be one of ${(field.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`
  }
}

/**
 * A calendar date outside LIMITS.fieldDateMin…fieldDateMax (`0000-01-01`), or null.
 * Only for a value that already passed its type check: `YYYY-MM-DD` compares as text.
 */
export function dateRangeProblem(field: StoredField, value: FieldValue): string | null {
  if (field.type !== 'date' || typeof value !== 'string') return null
  if (value >= LIMITS.fieldDateMin && value <= LIMITS.fieldDateMax) return null
  return `must be a date from ${LIMITS.fieldDateMin} to ${LIMITS.fieldDateMax} (got "${value}")`
}
