// Shapes of the template editor's console routes (docs/console.md), one schema per shape.
import { type Static, Type } from 'typebox'
import type { StoredField } from '../../documents/document-model.ts'
import { ReportedField } from '../../documents/field-report.ts'
import { FieldDeclaration } from '../../documents/field-schemas.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../../http/common-schemas.ts'
import { PageSize } from '../../submissions/create-submission-from-html.ts'
import { CreateTemplateBody } from '../../templates/template-schemas.ts'
import type { TemplateDraft as DraftRow } from './template-draft-store.ts'

/**
 * A field as a draft keeps it: a declaration as the save takes it, but caught half-typed (an empty
 * name or choice is still the editor's work; the save refuses it, the draft keeps it).
 */
export const DraftField = Type.Object(
  {
    ...FieldDeclaration.properties,
    name: Type.String({ maxLength: 100 }),
    options: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
  },
  { additionalProperties: false, title: 'DraftField' },
)
export type DraftField = Static<typeof DraftField>

export const TemplateDraft = Type.Object({
  object: Type.Literal('template_draft'),
  id: Id('tdr'),
  /** The template's name as the editor last saved it (at first the uploaded file's, or the copied template's). */
  name: Type.String(),
  /** The template's slug as the editor last saved it (empty: none). */
  slug: Type.String(),
  /** Where the first fields came from: none (a PDF), the document's tags, a copied template. */
  source: StringEnum(['pdf', 'tags', 'template'] as const),
  /** Page sizes in points, crop box as a viewer shows it. */
  pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number() })),
  expires_at: Timestamp,
  /** When the editor last saved its work; null: not since the upload. */
  updated_at: Nullable(Timestamp),
  /** The fields as the editor last saved them; at first from the tags, or the template copied. */
  fields: Type.Array(DraftField),
  /** Where each tag of an HTML or DOCX document landed, as from_html answers it (empty otherwise). */
  tag_report: Type.Array(ReportedField),
})
export type TemplateDraft = Static<typeof TemplateDraft>

export function toApiDraft(draft: DraftRow): TemplateDraft {
  return {
    object: 'template_draft',
    id: draft.id,
    name: draft.state.name,
    slug: draft.state.slug,
    source: draft.state.source,
    pages: draft.pages,
    expires_at: draft.expires_at,
    updated_at: draft.updated_at,
    fields: draft.state.fields,
    tag_report: draft.state.tag_report,
  }
}

/** The editor's work, saved whole each time (PATCH /console/api/template_drafts/:id). */
export const TemplateDraftStateBody = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    slug: Type.String({ maxLength: 100 }),
    fields: Type.Array(DraftField, { maxItems: 500 }),
  },
  { additionalProperties: false, title: 'TemplateDraftStateBody' },
)

/** The member's drafts not yet made templates, last worked on first. */
export const TemplateDraftList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(TemplateDraft),
})

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
/** What the draft upload takes as its raw body (POST /v1/verify takes application/pdf too: app.ts). */
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
