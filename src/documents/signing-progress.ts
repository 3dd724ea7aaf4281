// A signer's values in progress (docs/api.md#saving-progress) as one JSON text: what the page saved,
// field by field, before the signer signs. Images are kept, once each by their hash, however many
// fields use them (one signature drawn and reused on ten pages is kept once). Pure.
import { sha256Hex } from '../lib/crypto.ts'
import { own } from '../lib/own.ts'
import type { FieldValue } from './field-values.ts'

export type ProgressValues = Record<string, FieldValue>

/** A change the page sends: a value, or null for a field emptied. */
export type ProgressChanges = Record<string, FieldValue | null>

interface Encoded {
  values: Record<string, FieldValue | { image: string }>
  images: Record<string, string>
}

const isDataUrl = (value: FieldValue): value is string =>
  typeof value === 'string' && value.startsWith('data:')

/** `values` with `changes` laid over them: a null removes the field. Names stay own keys. */
export function mergeProgress(values: ProgressValues, changes: ProgressChanges): ProgressValues {
  const merged = new Map(Object.entries(values))
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) merged.delete(name)
    else merged.set(name, value)
  }
  return Object.fromEntries(merged)
}

export function encodeProgress(values: ProgressValues): string {
  const encoded: Encoded = { values: {}, images: {} }
  const entries = Object.entries(values).map(([name, value]) => {
    if (!isDataUrl(value)) return [name, value] as const
    const hash = sha256Hex(value)
    encoded.images[hash] = value
    return [name, { image: hash }] as const
  })
  encoded.values = Object.fromEntries(entries)
  return JSON.stringify(encoded)
}

export function decodeProgress(json: string): ProgressValues {
  const encoded = JSON.parse(json) as Encoded
  const entries = Object.entries(encoded.values).flatMap(([name, value]) => {
    if (typeof value !== 'object') return [[name, value] as const]
    const image = own(encoded.images, value.image)
    return image === undefined ? [] : [[name, image] as const]
  })
  return Object.fromEntries(entries)
}
