// The types a field may have (docs/api.md#documents): the API's schemas (documents/field-schemas.ts), the
// tag parser (render/text-tags.ts) and the pages that draw fields all read this one list.
export const FIELD_TYPES = [
  'signature',
  'initials',
  'date',
  'text',
  'checkbox',
  'number',
  'radio',
  'select',
] as const
export type FieldType = (typeof FIELD_TYPES)[number]
