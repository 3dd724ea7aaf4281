// Template request and response shapes (docs/api.md#templates; designed here like the rest of the
// API and documented in the OpenAPI).
import { type Static, Type } from 'typebox'
import { DocumentInput } from '../documents/field-schemas.ts'
import { Id, Metadata, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { FIELD_TYPES } from '../lib/field-types.ts'
import type { TemplateRecord } from './template-store.ts'

export const CreateTemplateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    slug: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
        description: 'Unique per account and environment',
      }),
    ),
    external_id: Type.Optional(Type.String({ maxLength: 255 })),
    metadata: Type.Optional(Metadata),
    documents: Type.Array(DocumentInput, {
      minItems: 1,
      maxItems: 10,
      description:
        'PDFs with their fields, exactly as in POST /v1/submissions/from_pdf; every field needs a role',
    }),
  },
  { additionalProperties: false, title: 'CreateTemplateBody' },
)
export type CreateTemplateBody = Static<typeof CreateTemplateBody>

const Area = Type.Object({
  document: Type.Integer({ description: 'Index in `documents`' }),
  page: Type.Integer({ description: '1-indexed' }),
  x: Type.Number({ description: 'Fractions of the page, origin top-left' }),
  y: Type.Number(),
  w: Type.Number(),
  h: Type.Number(),
})

export const TemplateField = Type.Object(
  {
    name: Type.String(),
    type: StringEnum(FIELD_TYPES),
    role: Type.String(),
    required: Type.Boolean(),
    readonly: Type.Boolean(),
    options: Type.Union([Type.Array(Type.String()), Type.Null()]),
    areas: Type.Array(Area),
  },
  { title: 'TemplateField' },
)

export const Template = Type.Object(
  {
    id: Id('tpl'),
    object: Type.Literal('template'),
    name: Type.String(),
    slug: Type.Union([Type.String(), Type.Null()]),
    external_id: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(['active', 'archived'] as const),
    created_via: StringEnum(['api', 'ui'] as const),
    internal: Type.Boolean({
      description: 'true for the archived template made behind an inline-PDF submission',
    }),
    metadata: Metadata,
    roles: Type.Array(Type.String(), { description: 'Roles of the fields, in order of first appearance' }),
    documents: Type.Array(
      Type.Object({
        name: Type.String(),
        sha256: Type.String(),
        size: Type.Integer(),
        page_count: Type.Integer(),
        pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number() }), {
          description: 'Points, as seen (CropBox, rotation)',
        }),
      }),
    ),
    fields: Type.Array(TemplateField),
    created_at: Timestamp,
    updated_at: Timestamp,
    archived_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'Template' },
)
export type Template = Static<typeof Template>

export function toApiTemplate(t: TemplateRecord): Template {
  return {
    id: t.id,
    object: 'template',
    name: t.name,
    slug: t.slug,
    external_id: t.external_id,
    status: t.status,
    created_via: t.created_via,
    internal: t.internal === 1,
    metadata: t.metadata,
    roles: [...new Set(t.fields.map((f) => f.role))],
    documents: t.documents.map((d) => ({
      name: d.name,
      sha256: d.sha256,
      size: d.size,
      page_count: d.pages.length,
      pages: d.pages,
    })),
    fields: t.fields,
    created_at: t.created_at,
    updated_at: t.updated_at,
    archived_at: t.archived_at,
  }
}
