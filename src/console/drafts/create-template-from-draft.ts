// POST /console/api/template_drafts/:id/template — the editor's save: the template made from the
// draft's PDF and the drawn fields through the same buildTemplate + insertTemplate as POST
// /v1/templates (placement checks, slug uniqueness), created_via "ui". Idempotent: a double click
// or a retried save with the same Idempotency-Key makes one template. The draft is marked made (in
// the same transaction), so the editor no longer offers to resume it.
import { isUniqueViolation } from '../../db/dialect.ts'
import { ApiError, orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { buildTemplate, documentDeclarations } from '../../templates/build-template.ts'
import { Template, toApiTemplate } from '../../templates/template-schemas.ts'
import { insertTemplate } from '../../templates/template-store.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { DraftParams, TemplateFromDraftBody } from './template-draft-schemas.ts'
import { findTemplateDraft, markTemplateDraftSaved } from './template-draft-store.ts'

export const createTemplateFromDraft = defineRoute({
  operationId: 'createTemplateFromDraft',
  method: 'POST',
  url: '/console/api/template_drafts/:id/template',
  summary: 'Make a template from a template draft and the fields drawn on it',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  idempotent: true,
  schema: { params: DraftParams, body: TemplateFromDraftBody, response: { 201: Template } },
  errors: [
    'resource_not_found',
    'invalid_pdf',
    'invalid_field_area',
    'slug_already_exists',
    'storage_upload_failed',
  ],
  handler: async ({ params, body, scope, transaction }, deps) => {
    const draft = orNotFound(await findTemplateDraft(deps.db, scope, params.id, deps.clock.now()))
    const pdf = orNotFound(await deps.blobs.get(draft.blob_key))
    const documents = [{ name: draft.name, pdf_base64: pdf.toString('base64'), fields: body.fields }]
    const built = await buildTemplate(
      deps,
      scope,
      { name: body.name, slug: body.slug ?? null, internal: false },
      documents,
      documentDeclarations(documents),
    )
    const template = { ...built, created_via: 'ui' as const }
    try {
      return await transaction(async (tx) => {
        await insertTemplate(tx, template)
        await markTemplateDraftSaved(tx, scope, draft.id, template.id)
        return toApiTemplate(template)
      })
    } catch (error) {
      await Promise.allSettled(template.documents.map((d) => deps.blobs.delete(d.blob_key)))
      if (isUniqueViolation(deps.engine, error)) {
        throw new ApiError('slug_already_exists', `slug: "${body.slug}" is already used by another template.`)
      }
      throw error
    }
  },
})
