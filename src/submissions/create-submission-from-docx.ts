// POST /v1/submissions/from_docx — docs/api.md#docx: a Word document with {{tag}} variables,
// converted to HTML by mammoth (after the zip gate, in a child process: render/docx-to-html.ts),
// then the from_html path (tagged-document.ts). Tags Word split over several runs still count: they
// come out of mammoth as `{{Na<strong>me</strong>;…}}`, which the tag finder reads through.
import { Type } from 'typebox'
import { defineRoute } from '../http/define-route.ts'
import { LIMITS } from '../limits.ts'
import { docxToHtml } from '../render/docx-to-html.ts'
import { CreatedFromTags, DocumentName, PageSize } from './create-submission-from-html.ts'
import { creationOptions, InlineSubmitter } from './creation-schemas.ts'
import { RENDER_LIMIT_NOTE, rendering } from './render-errors.ts'
import { checkTaggedRequest, createFromTaggedHtml } from './tagged-document.ts'

const FromDocxBody = Type.Object(
  {
    name: DocumentName,
    // No length keyword: the body limit (4 MB) bounds it; docxToHtml refuses a bad or large one.
    file: Type.String({ description: 'The DOCX, base64 (at most 4 MB of base64)' }),
    size: Type.Optional(PageSize),
    ...creationOptions(InlineSubmitter),
  },
  { additionalProperties: false, title: 'CreateSubmissionFromDocxBody' },
)

export const createSubmissionFromDocx = defineRoute({
  operationId: 'createSubmissionFromDocx',
  method: 'POST',
  url: '/v1/submissions/from_docx',
  summary: 'Create a submission from a Word document with tags',
  description: `The DOCX is checked before it is opened (a ZIP with at most 1 000 entries, 50 MiB inflated in all, no entry inflating more than 100 times, no ZIP64 or encryption, and each entry really inflating to its declared size, and no part declaring a document type or an entity, \`<!DOCTYPE\` or \`<!ENTITY\`: 422 \`invalid_docx\` naming the part), converted to HTML with its headings, emphasis, lists, tables and inline images, then handled as \`from_html\`: each \`{{…}}\` tag, even one Word split over differently formatted runs, becomes a field where it stood. A tag error names the text before the tag. ${RENDER_LIMIT_NOTE}`,
  tag: 'Submissions',
  idempotent: true,
  bodyLimit: LIMITS.htmlBodyBytes,
  schema: { body: FromDocxBody, response: { 201: CreatedFromTags } },
  errors: [
    'invalid_docx',
    'invalid_template_tag',
    'no_tags_found',
    'submitter_role_not_in_template',
    'phone_2fa_not_supported',
    'email_not_deliverable',
    'docx_convert_failed',
    'html_render_failed',
    'rate_limit_exceeded',
    'storage_upload_failed',
  ],
  handler: async ({ body, scope, transaction }, deps) => {
    const { name, file, size, submitters, ...options } = body
    await checkTaggedRequest(deps, { options, submitters })
    const html = await rendering(docxToHtml(file, { title: name, logger: deps.logger }))
    return createFromTaggedHtml(deps, scope, transaction, {
      name,
      html,
      size: size ?? 'A4',
      source: { path: 'file', lines: false },
      submitters,
      options,
    })
  },
})
