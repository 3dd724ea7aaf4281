// Request shapes of documents and field declarations (docs/api.md#documents), shared by template
// creation and POST /v1/submissions/from_pdf.
import { type Static, Type } from 'typebox'
import { StringEnum } from '../http/common-schemas.ts'
import { FIELD_TYPES } from '../lib/field-types.ts'

export const FieldArea = Type.Object(
  {
    page: Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: '1-indexed, or 0-indexed when any page in the body is 0 (docs/api.md#field-areas)',
    }),
    x: Type.Number({
      minimum: 0,
      description: 'Left edge: fraction of the page width, or points when any value in the body exceeds 1',
    }),
    y: Type.Number({ minimum: 0, description: 'Top edge, from the top of the page (y grows downward)' }),
    w: Type.Number({ exclusiveMinimum: 0, description: 'Width' }),
    h: Type.Number({ exclusiveMinimum: 0, description: 'Height' }),
  },
  { additionalProperties: false, title: 'FieldArea' },
)
export type FieldArea = Static<typeof FieldArea>

export const FieldName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f]+$' })

export const FieldDeclaration = Type.Object(
  {
    name: FieldName,
    type: Type.Optional(StringEnum(FIELD_TYPES, { description: 'Default `signature`' })),
    role: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Role of the submitter who fills the field' }),
    ),
    required: Type.Optional(Type.Boolean({ description: 'Default true' })),
    readonly: Type.Optional(Type.Boolean({ description: 'Default false' })),
    options: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 100,
        description: 'Choices of a `radio` or `select` field (required for those, refused on others)',
      }),
    ),
    areas: Type.Array(FieldArea, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false, title: 'FieldDeclaration' },
)
export type FieldDeclaration = Static<typeof FieldDeclaration>

// No length keyword on the PDF strings, not even minLength: Ajv counts a string's characters one
// by one for either, ~5 ms on a 4.4 MB body. The body limit bounds them; intake refuses an empty one.
export const DocumentInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    pdf_base64: Type.Optional(
      Type.String({
        description: 'The PDF, base64 (decoded at most 50 MB; the request body is limited to 4.5 MB)',
      }),
    ),
    file: Type.Optional(Type.String({ description: 'Base64 PDF, or a public HTTPS URL of a PDF' })),
    pdf_url: Type.Optional(
      // No maxLength: an over-long URL is refused by the URL guard as invalid_pdf_url, like any other.
      Type.String({
        minLength: 1,
        description: 'Public HTTPS URL of a PDF (up to 50 MB; the URL at most 2048 characters)',
      }),
    ),
    fields: Type.Optional(Type.Array(FieldDeclaration, { maxItems: 500 })),
  },
  { additionalProperties: false, title: 'DocumentInput' },
)
export type DocumentInput = Static<typeof DocumentInput>
