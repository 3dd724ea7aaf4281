// POST /v1/templates — docs/api.md#templates: a reusable PDF with positioned fields.
import { isUniqueViolation } from '../db/dialect.ts'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { LIMITS } from '../limits.ts'
import { buildTemplate, documentDeclarations } from './build-template.ts'
import { CreateTemplateBody, Template, toApiTemplate } from './template-schemas.ts'
import { insertTemplate } from './template-store.ts'

export const INLINE_PDF_BODY_LIMIT = LIMITS.pdfBodyBytes

export const createTemplate = defineRoute({
  operationId: 'createTemplate',
  method: 'POST',
  url: '/v1/templates',
  summary: 'Create a template',
  description:
    'A PDF (or several) with fields placed as in POST /v1/submissions/from_pdf (docs/api.md#field-areas). The body is limited to 4.5 MB: pass larger PDFs (up to 50 MB) by HTTPS URL. `created_via` is `api` (`ui` when made in the console).',
  tag: 'Templates',
  idempotent: true,
  bodyLimit: INLINE_PDF_BODY_LIMIT,
  schema: { body: CreateTemplateBody, response: { 201: Template } },
  errors: [
    'invalid_pdf',
    'invalid_pdf_url',
    'invalid_field_area',
    'slug_already_exists',
    'storage_upload_failed',
  ],
  handler: async ({ body, scope, transaction }, deps) => {
    const { documents, ...draft } = body
    const built = await buildTemplate(
      deps,
      scope,
      { ...draft, internal: false },
      documents,
      documentDeclarations(documents),
    )
    // docs/api.md#templates: made in the console (its session cookie) or through the API.
    const template = { ...built, created_via: scope.via === 'console' ? ('ui' as const) : ('api' as const) }
    try {
      return await transaction(async (tx) => {
        await insertTemplate(tx, template)
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
