// POST /v1/submissions/from_html — docs/api.md#html-and-docx-documents: inline HTML with {{tag}}
// variables, rendered to PDF by Chromium (JavaScript off, nothing fetched but data: URLs), the
// fields placed where the tags stood (tagged-document.ts). The answer adds `fields`: where each tag
// landed.
import { Type } from 'typebox'
import { ReportedField } from '../documents/field-report.ts'
import { StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { LIMITS } from '../limits.ts'
import { PAGE_SIZES } from '../render/field-marks.ts'
import { CreatedSubmission, creationOptions, InlineSubmitter } from './creation-schemas.ts'
import { RENDER_LIMIT_NOTE } from './render-errors.ts'
import { createFromTaggedHtml } from './tagged-document.ts'

export const DocumentName = Type.String({ minLength: 1, maxLength: 255, description: 'Name of the document' })
export const PageSize = StringEnum(Object.keys(PAGE_SIZES) as Array<keyof typeof PAGE_SIZES>, {
  description: 'A4 (595 × 842 pt) or Letter (612 × 792 pt); default A4',
})

/** The creation answer with the tag report. */
export const CreatedFromTags = Type.Object(
  {
    ...CreatedSubmission.properties,
    fields: Type.Array(ReportedField, {
      description:
        'Each field found in the tags, with the page and box (points and fractions) where it landed',
    }),
  },
  { title: 'CreatedSubmissionFromTags' },
)

const FromHtmlBody = Type.Object(
  {
    name: DocumentName,
    // No length keyword: the body limit (4 MB) bounds it, and Ajv would count characters one by one.
    html: Type.String({
      description:
        'A self-contained HTML document with {{Name;role=…;type=…}} tags (docs/api.md#syntax); images inline as data: URLs',
    }),
    size: Type.Optional(PageSize),
    ...creationOptions(InlineSubmitter),
  },
  { additionalProperties: false, title: 'CreateSubmissionFromHtmlBody' },
)

export const createSubmissionFromHtml = defineRoute({
  operationId: 'createSubmissionFromHtml',
  method: 'POST',
  url: '/v1/submissions/from_html',
  summary: 'Create a submission from HTML with tags',
  description: `The HTML is printed to PDF by headless Chromium with JavaScript off and every request but \`data:\` refused (external images, stylesheets and frames show nothing); pages are A4 or Letter with 20 mm margins unless the document sets its own \`@page\` margins, and content flows over as many pages as it needs. Each \`{{…}}\` tag becomes a field box of its type's size (or \`width=\`/\`height=\` in points) where the tag stood; the tag text is removed. A tag may run through inline markup (\`{{Na<b>me</b>}}\`) but not across paragraphs or cells. Tags of one name are one field with one area per tag. \`role\` omitted: the first submitter's. The answer lists every field with the page and box where it landed. ${RENDER_LIMIT_NOTE}`,
  tag: 'Submissions',
  idempotent: true,
  bodyLimit: LIMITS.htmlBodyBytes,
  schema: { body: FromHtmlBody, response: { 201: CreatedFromTags } },
  errors: [
    'invalid_template_tag',
    'no_tags_found',
    'submitter_role_not_in_template',
    'phone_2fa_not_supported',
    'email_not_deliverable',
    'html_render_failed',
    'rate_limit_exceeded',
    'storage_upload_failed',
  ],
  handler: async ({ body, scope, transaction }, deps) => {
    const { name, html, size, submitters, ...options } = body
    return createFromTaggedHtml(deps, scope, transaction, {
      name,
      html,
      size: size ?? 'A4',
      source: { path: 'html', lines: true },
      submitters,
      options,
    })
  },
})
