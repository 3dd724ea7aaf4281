// What a template stores about its documents and fields: page sizes known, areas normalized to
// fractions of the page with 1-indexed pages, whatever units the creator used
// (docs/api.md#field-areas).
import type { FieldType } from '../lib/field-types.ts'

export interface PageSize {
  width: number
  height: number
}

export interface StoredDocument {
  name: string
  blob_key: string
  sha256: string
  size: number
  pages: PageSize[]
}

export interface StoredArea {
  /** Index in the template's documents. */
  document: number
  /** 1-indexed. */
  page: number
  x: number
  y: number
  w: number
  h: number
}

export interface StoredField {
  name: string
  type: FieldType
  role: string
  required: boolean
  readonly: boolean
  options: string[] | null
  areas: StoredArea[]
}

/** The roles of a template, in the order their first field appears. */
export function rolesOf(fields: StoredField[]): string[] {
  return [...new Set(fields.map((f) => f.role))]
}
