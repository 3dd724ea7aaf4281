// GET /v1/submissions/{id}/documents — docs/api.md#files: signed URLs valid 1 hour.
import { Type } from 'typebox'
import { downloadUrl, FILE_URL_TTL_MS, pdfName, signedPdfName } from '../documents/file-urls.ts'
import { orNotFound } from '../errors.ts'
import { Id, IdParams, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { findTemplate } from '../templates/template-store.ts'
import { refusePurged } from './purged-refusal.ts'
import { SUBMISSION_STATUSES } from './submission-schemas.ts'
import { findSubmission } from './submission-store.ts'

export const SubmissionDocuments = Type.Object(
  {
    submission_id: Id('sub'),
    status: StringEnum(SUBMISSION_STATUSES),
    original_pdf_url: Type.String({ description: 'The first document as sent' }),
    signed_pdf_url: Type.Union([Type.String(), Type.Null()], {
      description:
        'The sealed final PDF: every document in order, each value drawn, a footer on each page, a PAdES seal; null until `completed`',
    }),
    url_expires_at: Timestamp,
    documents: Type.Array(
      Type.Object({ name: Type.String(), sha256: Type.String(), original_pdf_url: Type.String() }),
      { description: 'Every document as sent, when there are several' },
    ),
  },
  { title: 'SubmissionDocuments' },
)

/** `Contract (signed).pdf`: the first document's name, as the final PDF begins with it. */
export const getSubmissionDocuments = defineRoute({
  operationId: 'getSubmissionDocuments',
  method: 'GET',
  url: '/v1/submissions/:id/documents',
  summary: 'Get signed URLs of the original and signed PDFs',
  tag: 'Submissions',
  schema: { params: IdParams('sub'), response: { 200: SubmissionDocuments } },
  errors: ['resource_not_found', 'submission_purged'],
  handler: async ({ params, scope }, deps) => {
    const submission = orNotFound(await findSubmission(deps.db, scope, params.id), `submission ${params.id}`)
    refusePurged(submission)
    const template = orNotFound(
      await findTemplate(deps.db, scope, submission.template_id),
      `submission ${params.id}`,
    )
    const expiresAt = new Date(deps.clock.now().getTime() + FILE_URL_TTL_MS)
    const documents = await Promise.all(
      template.documents.map(async (d) => ({
        name: d.name,
        sha256: d.sha256,
        original_pdf_url: await downloadUrl(deps, d.blob_key, pdfName(d.name), expiresAt),
      })),
    )
    return {
      submission_id: submission.id,
      status: submission.status,
      original_pdf_url: documents[0]!.original_pdf_url,
      // One sealed final PDF per submission (every document's pages, in order), once completed.
      signed_pdf_url:
        submission.status === 'completed' && submission.final_pdf_key
          ? await downloadUrl(deps, submission.final_pdf_key, signedPdfName(template.documents), expiresAt)
          : null,
      url_expires_at: toIso(expiresAt),
      documents,
    }
  },
})
