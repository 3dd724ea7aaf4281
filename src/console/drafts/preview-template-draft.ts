// POST /console/api/template_drafts/:id/preview — the editor's "preview as a signer"
// (docs/console.md#preview-as-a-signer): the draft's PDF and the fields as drawn now become a
// submission in the account's **test** environment, whatever environment the console shows, with
// one submitter per role (placeholder addresses at `.invalid`, names the roles), any order, e-mail
// off and a 24-hour life. `preview` marks it, so it sends nothing: no mail (e-mail is off for
// everyone) and no webhook delivery (publish-event.ts). The answer is the chosen role's signing URL:
// the real signing page, with a notice that this is a test copy.
import { Type } from 'typebox'
import { ApiError, orNotFound } from '../../errors.ts'
import { Timestamp } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { toIso } from '../../lib/clock.ts'
import { recordNewSubmission } from '../../submissions/record-submission.ts'
import { buildTemplate, documentDeclarations } from '../../templates/build-template.ts'
import { insertTemplate } from '../../templates/template-store.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { DraftParams, TemplateFromDraftBody } from './template-draft-schemas.ts'
import { findTemplateDraft } from './template-draft-store.ts'

/** How long a preview's signing link works (the draft's own life). */
export const PREVIEW_LIFETIME_MS = 24 * 60 * 60 * 1000

const PreviewBody = Type.Object(
  {
    name: Type.Optional(TemplateFromDraftBody.properties.name),
    fields: TemplateFromDraftBody.properties.fields,
    /** The role whose signing page opens; it must have a field. */
    role: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false, title: 'TemplateDraftPreviewBody' },
)

const TemplateDraftPreview = Type.Object(
  {
    object: Type.Literal('template_preview'),
    /** The test-environment submission made for the preview. */
    submission_id: Type.String(),
    role: Type.String(),
    /** The role's signing page (docs/signing.md), as a signer would open it from the mail. */
    signing_url: Type.String(),
    expires_at: Timestamp,
  },
  { title: 'TemplateDraftPreview' },
)

export const previewTemplateDraft = defineRoute({
  operationId: 'previewTemplateDraft',
  method: 'POST',
  url: '/console/api/template_drafts/:id/preview',
  summary: 'Open the signing page of one role on a test copy of the draft that sends nothing',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { params: DraftParams, body: PreviewBody, response: { 201: TemplateDraftPreview } },
  errors: [
    'resource_not_found',
    'invalid_pdf',
    'invalid_field_area',
    'submitter_role_not_in_template',
    'storage_upload_failed',
  ],
  handler: async ({ params, body, scope, transaction }, deps) => {
    const now = deps.clock.now()
    const draft = orNotFound(await findTemplateDraft(deps.db, scope, params.id, now), 'draft')
    const pdf = orNotFound(await deps.blobs.get(draft.blob_key))
    const name = body.name?.trim() || draft.state.name || draft.name
    const test = { accountId: scope.accountId, environment: 'test' as const }
    const documents = [{ name, pdf_base64: pdf.toString('base64'), fields: body.fields }]
    const template = await buildTemplate(
      deps,
      test,
      { name, internal: true },
      documents,
      documentDeclarations(documents),
    )
    try {
      const roles = [...new Set(template.fields.map((f) => f.role))]
      if (!roles.includes(body.role))
        throw new ApiError(
          'submitter_role_not_in_template',
          `role: "${body.role}" has no field in this draft; draw one of its fields before previewing it.`,
        )
      const expiresAt = toIso(new Date(now.getTime() + PREVIEW_LIFETIME_MS))
      return await transaction(async (tx) => {
        await insertTemplate(tx, template)
        const created = await recordNewSubmission(tx, deps, test, {
          templateId: template.id,
          preview: true,
          options: { send_email: false, signing_order: 'random', expires_at: expiresAt },
          submitters: roles.map((role, i) => ({
            role,
            name: role,
            email: `signer${i + 1}@preview.invalid`,
            values: {},
          })),
        })
        return {
          object: 'template_preview' as const,
          submission_id: created.id,
          role: body.role,
          // No group in a preview: every signer has a link of their own.
          signing_url: created.submitters[roles.indexOf(body.role)]!.signing_url ?? '',
          expires_at: expiresAt,
        }
      })
    } catch (error) {
      await Promise.allSettled(template.documents.map((d) => deps.blobs.delete(d.blob_key)))
      throw error
    }
  },
})
