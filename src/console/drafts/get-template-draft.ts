// GET /console/api/template_drafts/:id — a draft as the editor last saved it, to resume it
// (/console/templates/new?draft=tdr_…): its pages, the template's name and slug as typed, the fields
// drawn. The scope is in the WHERE: another account's or environment's draft, or an expired one, is
// a plain 404.
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { DraftParams, TemplateDraft, toApiDraft } from './template-draft-schemas.ts'
import { findTemplateDraft } from './template-draft-store.ts'

export const getTemplateDraft = defineRoute({
  operationId: 'getTemplateDraft',
  method: 'GET',
  url: '/console/api/template_drafts/:id',
  summary: 'A template draft as the editor last saved it',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { params: DraftParams, response: { 200: TemplateDraft } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, deps) =>
    toApiDraft(orNotFound(await findTemplateDraft(deps.db, scope, params.id, deps.clock.now()), 'draft')),
})
