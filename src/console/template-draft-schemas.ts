// Shapes of the template editor's console routes (docs/console.md), one schema per shape.
import { type Static, Type } from 'typebox'
import { FieldDeclaration } from '../documents/field-schemas.ts'
import { Id, Timestamp } from '../http/common-schemas.ts'
import { CreateTemplateBody } from '../templates/template-schemas.ts'
import type { TemplateDraft as DraftRow } from './template-draft-store.ts'

export const TemplateDraft = Type.Object({
  object: Type.Literal('template_draft'),
  id: Id('tdr'),
  name: Type.String(),
  /** Page sizes in points, crop box as a viewer shows it. */
  pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number() })),
  expires_at: Timestamp,
})
export type TemplateDraft = Static<typeof TemplateDraft>

export function toApiDraft(draft: DraftRow): TemplateDraft {
  return {
    object: 'template_draft',
    id: draft.id,
    name: draft.name,
    pages: draft.pages,
    expires_at: draft.expires_at,
  }
}

export const DraftParams = Type.Object({ id: Id('tdr') }, { additionalProperties: false })

export const DraftUploadQuery = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) },
  { additionalProperties: false },
)

/** The template made from a draft: the fields of its one document, as POST /v1/templates takes them. */
export const TemplateFromDraftBody = Type.Object(
  {
    name: CreateTemplateBody.properties.name,
    slug: CreateTemplateBody.properties.slug,
    fields: Type.Array(FieldDeclaration, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false, title: 'TemplateFromDraftBody' },
)
