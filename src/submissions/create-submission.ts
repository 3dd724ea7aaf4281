// POST /v1/submissions — docs/api.md#creating-a-submission: a submission from a stored template.
import { Type } from 'typebox'
import { fieldError } from '../errors.ts'
import { Id } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { checkDeliverable } from '../mail/address-delivery.ts'
import { findTemplate } from '../templates/template-store.ts'
import {
  checkCommonOptions,
  checkSubmitterFlags,
  checkSubmittersAgainstFields,
  creationAddresses,
} from './creation-rules.ts'
import { CreatedSubmission, creationOptions, TemplateSubmitter } from './creation-schemas.ts'
import { recordNewSubmission } from './record-submission.ts'
import { templateRequests, toNewSubmitters } from './submitter-input.ts'

const FromTemplateBody = Type.Object(
  {
    template_id: Id('tpl'),
    ...creationOptions(TemplateSubmitter),
  },
  { additionalProperties: false, title: 'CreateSubmissionBody' },
)

export const createSubmission = defineRoute({
  operationId: 'createSubmission',
  method: 'POST',
  url: '/v1/submissions',
  summary: 'Create a submission from a template',
  description:
    "Each submitter's `fields` prefill values by field name; a prefilled field must belong to that submitter's role.",
  tag: 'Submissions',
  idempotent: true,
  schema: { body: FromTemplateBody, response: { 201: CreatedSubmission } },
  errors: [
    'template_not_found',
    'template_archived',
    'submitter_role_not_in_template',
    'phone_2fa_not_supported',
    'email_not_deliverable',
  ],
  handler: async ({ body, scope, transaction }, deps) => {
    const { template_id: templateId, submitters, ...options } = body
    checkCommonOptions(options, deps.clock.now())
    checkSubmitterFlags(submitters)
    await checkDeliverable(deps.mailer, creationAddresses(options, submitters))
    return transaction(async (tx) => {
      const template = await findTemplate(tx, scope, templateId)
      if (!template)
        throw fieldError(
          'template_not_found',
          'template_id',
          `no template ${templateId} in this environment.`,
        )
      if (template.status === 'archived') {
        throw fieldError(
          'template_archived',
          'template_id',
          `template ${templateId} is archived; submissions cannot be created from it.`,
        )
      }
      const requests = templateRequests(submitters)
      checkSubmittersAgainstFields(requests, template.fields)
      return recordNewSubmission(tx, deps, scope, {
        templateId,
        options,
        submitters: toNewSubmitters(submitters, requests),
      })
    })
  },
})
