// Shapes of the template editor's console routes (docs/console.md), one schema per shape.
import { type Static, Type } from 'typebox'
import type { StoredField } from '../../documents/document-model.ts'
import { ReportedField } from '../../documents/field-report.ts'
import { FieldDeclaration } from '../../documents/field-schemas.ts'
import { Id, Timestamp } from '../../http/common-schemas.ts'
import { PageSize } from '../../submissions/create-submission-from-html.ts'
import { CreateTemplateBody } from '../../templates/template-schemas.ts'
import type { TemplateDraft as DraftRow } from './template-draft-store.ts'

export const TemplateDraft = Type.Object({
  object: Type.Literal('template_draft'),
  id: Id('tdr'),
  name: Type.String(),
  /** Page sizes in points, crop box as a viewer shows it. */
  pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number() })),
  expires_at: Timestamp,
  /** The fields the editor starts with, as its save takes them: from the tags, or the template copied. */
  fields: Type.Array(FieldDeclaration),
  /** Where each tag of an HTML or DOCX document landed, as from_html answers it (empty otherwise). */
  tag_report: Type.Array(ReportedField),
})
export type TemplateDraft = Static<typeof TemplateDraft>

export function toApiDraft(
  draft: DraftRow,
  fields: FieldDeclaration[],
  tagReport: ReportedField[],
): TemplateDraft {
  return {
    object: 'template_draft',
    id: draft.id,
    name: draft.name,
    pages: draft.pages,
    expires_at: draft.expires_at,
    fields,
    tag_report: tagReport,
  }
}

/** Declarations of the draft's one document as a template stores them (for the tag report). */
export function toStoredFields(fields: FieldDeclaration[]): StoredField[] {
  return fields.map((f) => ({
    name: f.name,
    type: f.type ?? 'signature',
    role: f.role ?? '',
    required: f.required ?? true,
    readonly: f.readonly ?? false,
    options: f.options ?? null,
    areas: f.areas.map((a) => ({ document: 0, page: a.page, x: a.x, y: a.y, w: a.w, h: a.h })),
  }))
}

/** A template's stored fields as the editor's save declares them (its one document's areas). */
export function toDeclarations(fields: StoredField[]): FieldDeclaration[] {
  return fields.map((f) => ({
    name: f.name,
    type: f.type,
    role: f.role,
    required: f.required,
    readonly: f.readonly,
    ...(f.options ? { options: f.options } : {}),
    areas: f.areas.map((a) => ({ page: a.page, x: a.x, y: a.y, w: a.w, h: a.h })),
  }))
}

/** The content type of a Word document, one of the editor's uploads. */
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
/** What the draft upload takes as its raw body (and no other route does: app.ts). */
export const DRAFT_BODY_TYPES = ['application/pdf', 'text/html', DOCX_TYPE]

export const DraftParams = Type.Object({ id: Id('tdr') }, { additionalProperties: false })

export const DraftUploadQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    /** The page size an HTML or DOCX document is printed on (a PDF keeps its own). */
    size: Type.Optional(PageSize),
  },
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
