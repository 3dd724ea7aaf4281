// POST /console/api/template_drafts/from_template/:id — "Duplicate and edit": templates never change
// (the API has no PATCH), so the editor starts a new draft from a copy of a saved template's PDF and
// its fields; saving that draft makes another template. The template is read with the session's
// scope in the WHERE (another account's or environment's is a plain 404); the editor holds one PDF,
// so a template of several documents is refused.
import { ApiError, orNotFound } from '../../errors.ts'
import { IdParams } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { findTemplate } from '../../templates/template-store.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { TemplateDraft, toApiDraft, toDeclarations } from './template-draft-schemas.ts'
import { insertTemplateDraft } from './template-draft-store.ts'

export const createTemplateDraftFromTemplate = defineRoute({
  operationId: 'createTemplateDraftFromTemplate',
  method: 'POST',
  url: '/console/api/template_drafts/from_template/:id',
  summary: "A template draft from a copy of a saved template's PDF and fields",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { params: IdParams('tpl'), response: { 201: TemplateDraft } },
  errors: ['resource_not_found', 'invalid_request', 'storage_upload_failed'],
  handler: async ({ params, scope }, deps) => {
    const template = orNotFound(await findTemplate(deps.db, scope, params.id))
    if (template.documents.length !== 1)
      throw new ApiError(
        'invalid_request',
        `The template has ${template.documents.length} documents; the editor opens templates of one document.`,
      )
    const document = template.documents[0]!
    const pdf = orNotFound(await deps.blobs.get(document.blob_key))
    const id = deps.ids.next('tdr')
    const blobKey = `${scope.accountId}/${scope.environment}/template_drafts/${id}.pdf`
    await deps.blobs.put(blobKey, pdf, 'application/pdf')
    const now = deps.clock.now()
    const draft = await insertTemplateDraft(deps.db, scope, now, {
      id,
      name: template.name,
      blob_key: blobKey,
      pages: document.pages,
      state: { source: 'template', fields: toDeclarations(template.fields), tag_report: [] },
    })
    return toApiDraft(draft)
  },
})
