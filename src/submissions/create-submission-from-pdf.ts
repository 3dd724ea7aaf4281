// POST /v1/submissions/from_pdf — docs/api.md#documents: documents plus submitters; an internal
// archived template holds the stored PDFs and placed fields, and the submission points to it.
import { Type } from 'typebox'
import { DocumentInput } from '../documents/field-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { checkDeliverable } from '../mail/address-delivery.ts'
import { buildTemplate, documentDeclarations } from '../templates/build-template.ts'
import { INLINE_PDF_BODY_LIMIT } from '../templates/create-template.ts'
import { insertTemplate } from '../templates/template-store.ts'
import {
  checkCommonOptions,
  checkSubmitterFlags,
  checkSubmittersAgainstFields,
  creationAddresses,
} from './creation-rules.ts'
import { CreatedSubmission, creationOptions, InlineSubmitter } from './creation-schemas.ts'
import { recordNewSubmission } from './record-submission.ts'
import { inlineRequests, submitterDeclarations, toNewSubmitters } from './submitter-input.ts'

const FromPdfBody = Type.Object(
  {
    documents: Type.Array(DocumentInput, { minItems: 1, maxItems: 10 }),
    ...creationOptions(InlineSubmitter),
  },
  { additionalProperties: false, title: 'CreateSubmissionFromPdfBody' },
)

export const createSubmissionFromPdf = defineRoute({
  operationId: 'createSubmissionFromPdf',
  method: 'POST',
  url: '/v1/submissions/from_pdf',
  summary: 'Create a submission from a PDF',
  description:
    'Documents as `pdf_base64`, `file` (base64 or HTTPS URL) or `pdf_url`; decoded PDFs up to 50 MB, request body up to 4.5 MB (pass larger PDFs by URL). Field areas follow docs/api.md#field-areas: fractions or points detected for the whole body, 1- or 0-indexed pages detected for the whole body, origin top-left. Encrypted PDFs are refused.',
  tag: 'Submissions',
  idempotent: true,
  bodyLimit: INLINE_PDF_BODY_LIMIT,
  schema: { body: FromPdfBody, response: { 201: CreatedSubmission } },
  errors: [
    'invalid_pdf',
    'invalid_pdf_url',
    'invalid_field_area',
    'submitter_role_not_in_template',
    'phone_2fa_not_supported',
    'email_not_deliverable',
    'storage_upload_failed',
  ],
  handler: async ({ body, scope, transaction }, deps) => {
    const { documents, submitters, ...options } = body
    checkCommonOptions(options, deps.clock.now())
    checkSubmitterFlags(submitters)
    await checkDeliverable(deps.mailer, creationAddresses(options, submitters))
    const declarations = [...documentDeclarations(documents), ...submitterDeclarations(submitters)]
    const name = documents[0]?.name ?? 'Submission'
    const template = await buildTemplate(deps, scope, { name, internal: true }, documents, declarations)
    try {
      const requests = inlineRequests(submitters)
      checkSubmittersAgainstFields(requests, template.fields)
      return await transaction(async (tx) => {
        await insertTemplate(tx, template)
        return recordNewSubmission(tx, deps, scope, {
          templateId: template.id,
          options,
          submitters: toNewSubmitters(submitters, requests),
        })
      })
    } catch (error) {
      await Promise.allSettled(template.documents.map((d) => deps.blobs.delete(d.blob_key)))
      throw error
    }
  },
})
