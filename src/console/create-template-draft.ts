// POST /console/api/template_drafts — the template editor's upload: the raw PDF (Content-Type
// application/pdf, up to 50 MB) stored once, inspected as POST /v1/templates does (intake), its page
// sizes answered so the editor lays out every page before any image loads.

import { intakeDocuments } from '../documents/intake.ts'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { LIMITS } from '../limits.ts'
import { DraftUploadQuery, TemplateDraft, toApiDraft } from './template-draft-schemas.ts'
import { DRAFT_LIFETIME_MS, insertTemplateDraft } from './template-draft-store.ts'

export const createTemplateDraft = defineRoute({
  operationId: 'createTemplateDraft',
  method: 'POST',
  url: '/console/api/template_drafts',
  summary: 'Upload a PDF for the template editor',
  tag: 'Console',
  auth: 'console',
  // api-v1 §4.2: the decoded PDF limit (the body is the PDF itself, not base64).
  bodyLimit: LIMITS.pdfBytes,
  schema: { querystring: DraftUploadQuery, response: { 201: TemplateDraft } },
  errors: ['invalid_pdf', 'storage_upload_failed'],
  handler: async ({ body: raw, query, scope }, deps) => {
    // The application/pdf parser (app.ts) hands the body over as bytes; no schema describes them.
    const body = raw as unknown
    if (!Buffer.isBuffer(body) || body.length === 0) {
      throw new ApiError(
        'invalid_pdf',
        'Send the PDF itself as the body, with Content-Type: application/pdf.',
      )
    }
    const id = deps.ids.next('tdr')
    const name = query.name ?? 'Untitled'
    let stored: Awaited<ReturnType<typeof intakeDocuments>>
    try {
      stored = await intakeDocuments(
        [{ name, pdf_base64: body.toString('base64') }],
        () => `${scope.accountId}/${scope.environment}/template_drafts/${id}.pdf`,
        deps,
      )
    } catch (error) {
      // The intake names the API's field (documents[0].pdf_base64); here the body is the PDF.
      if (error instanceof ApiError && error.code === 'invalid_pdf') {
        throw new ApiError(
          'invalid_pdf',
          error.message.replace(/^documents\[0\]\.pdf_base64: /, 'The file: '),
        )
      }
      throw error
    }
    const document = stored[0]!
    const now = deps.clock.now()
    const draft = {
      id,
      name,
      blob_key: document.blob_key,
      pages: document.pages.map((p) => ({ width: p.width, height: p.height })),
      expires_at: toIso(new Date(now.getTime() + DRAFT_LIFETIME_MS)),
    }
    await insertTemplateDraft(deps.db, {
      ...draft,
      pages: JSON.stringify(draft.pages),
      account_id: scope.accountId,
      environment: scope.environment,
      member_id: scope.via === 'console' ? scope.memberId : scope.keyId,
      created_at: toIso(now),
    })
    return toApiDraft(draft)
  },
})
