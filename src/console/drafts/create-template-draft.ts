// POST /console/api/template_drafts — the template editor's upload, the file itself as the body:
// a PDF (application/pdf, up to 50 MB) stored as it is, or an HTML (text/html, UTF-8, up to 4 MB)
// or DOCX document (up to 3 MiB) with {{…}} tags, printed to a PDF and its tags made fields by the
// same code as from_html and from_docx (submissions/tagged-document.ts). Either way the PDF is
// inspected as POST /v1/templates does (intake) and its page sizes answered, so the editor lays out
// every page before any image loads; a tagged document adds its fields and the tag report.

import type { Scope } from '../../db/tables.ts'
import type { Deps } from '../../deps.ts'
import { reportFields } from '../../documents/field-report.ts'
import type { FieldDeclaration } from '../../documents/field-schemas.ts'
import { intakeDocuments } from '../../documents/intake.ts'
import { ApiError } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { LIMITS } from '../../limits.ts'
import { docxToHtml } from '../../render/docx-to-html.ts'
import type { PageFormat } from '../../render/field-marks.ts'
import type { FoundTag } from '../../render/html-tags.ts'
import { rendering } from '../../submissions/render-errors.ts'
import { renderTaggedDocument } from '../../submissions/tagged-document.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import {
  DOCX_TYPE,
  DraftUploadQuery,
  TemplateDraft,
  toApiDraft,
  toStoredFields,
} from './template-draft-schemas.ts'
import { insertTemplateDraft } from './template-draft-store.ts'

/** The role of a tag that names none, when no tag names one either. */
export const DEFAULT_TAG_ROLE = 'Signer'

/** A draft has no submitters yet: a tag without a role takes the first role any tag names. */
function tagsOwnRoles(tags: FoundTag[]): FoundTag[] {
  const first = tags.find((tag) => tag.spec.role)?.spec.role ?? DEFAULT_TAG_ROLE
  return tags.map((tag) => ({ ...tag, spec: { ...tag.spec, role: tag.spec.role ?? first } }))
}

/** The HTML or DOCX printed to a PDF, with the fields its tags declare. */
async function renderTagged(
  deps: Deps,
  scope: Scope,
  type: string,
  body: Buffer,
  name: string,
  size: PageFormat,
): Promise<{ pdf: Buffer; fields: FieldDeclaration[] }> {
  const docx = type === DOCX_TYPE
  // docs/api.md#limits: from_html's 4 MB body; here the body is the HTML alone (docxToHtml caps a
  // DOCX).
  if (!docx && body.length > LIMITS.htmlBodyBytes)
    throw new ApiError(
      'request_too_large',
      `The HTML is ${body.length} bytes; at most ${LIMITS.htmlBodyBytes} (4 MiB).`,
    )
  const html = docx
    ? await rendering(docxToHtml(body, { title: name, logger: deps.logger }))
    : body.toString('utf8')
  // A DOCX's HTML is the converter's: its line numbers would point nowhere the author can see.
  const source = { path: 'file' as const, lines: !docx }
  const done = await renderTaggedDocument(deps, scope, { html, size, source }, tagsOwnRoles)
  return { pdf: Buffer.from(done.pdf), fields: done.fields }
}

export const createTemplateDraft = defineRoute({
  operationId: 'createTemplateDraft',
  method: 'POST',
  url: '/console/api/template_drafts',
  summary: 'Upload a PDF, or an HTML or DOCX document with tags, for the template editor',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  // docs/api.md#limits: the decoded PDF limit (the body is the PDF itself, not base64).
  bodyLimit: LIMITS.pdfBytes,
  schema: { querystring: DraftUploadQuery, response: { 201: TemplateDraft } },
  errors: [
    'invalid_request',
    'invalid_pdf',
    'invalid_docx',
    'invalid_template_tag',
    'request_too_large',
    'docx_convert_failed',
    'html_render_failed',
    'rate_limit_exceeded',
    'storage_upload_failed',
  ],
  handler: async ({ body: raw, query, scope, headers }, deps) => {
    // The raw-body parsers (app.ts) hand the body over as bytes; no schema describes them.
    const body = raw as unknown
    const type = String(headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase()
    if (!Buffer.isBuffer(body) || body.length === 0) {
      if (type === 'application/pdf')
        throw new ApiError(
          'invalid_pdf',
          'Send the PDF itself as the body, with Content-Type: application/pdf.',
        )
      throw new ApiError('invalid_request', 'The body is empty: send the document itself as the body.')
    }
    const id = deps.ids.next('tdr')
    const name = query.name ?? 'Untitled'
    const tagged =
      type === 'application/pdf'
        ? undefined
        : await renderTagged(deps, scope, type, body, name, query.size ?? 'A4')
    let stored: Awaited<ReturnType<typeof intakeDocuments>>
    try {
      stored = await intakeDocuments(
        [{ name, pdf_base64: (tagged?.pdf ?? body).toString('base64') }],
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
    const fields = tagged?.fields ?? []
    const draft = await insertTemplateDraft(deps.db, scope, now, {
      id,
      name,
      blob_key: document.blob_key,
      pages: document.pages,
      state: {
        source: tagged ? 'tags' : 'pdf',
        fields,
        tag_report: reportFields(toStoredFields(fields), [{ pages: document.pages }]),
      },
    })
    return toApiDraft(draft)
  },
})
