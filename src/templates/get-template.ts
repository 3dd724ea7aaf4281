// GET /v1/templates/{id} — a template with its documents, fields and roles.
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { Template, toApiTemplate } from './template-schemas.ts'
import { findTemplate } from './template-store.ts'

export const getTemplate = defineRoute({
  operationId: 'getTemplate',
  method: 'GET',
  url: '/v1/templates/:id',
  summary: 'Get a template',
  tag: 'Templates',
  schema: { params: IdParams('tpl'), response: { 200: Template } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db }) =>
    toApiTemplate(orNotFound(await findTemplate(db, scope, params.id), `template ${params.id}`)),
})
