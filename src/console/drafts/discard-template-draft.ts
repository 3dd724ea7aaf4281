// DELETE /console/api/template_drafts/:id — "Start anew": the member's own draft ends now; the
// console's housekeeping task (purge-console.ts) deletes it and its blobs as it does an expired one.
import { Type } from 'typebox'
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { consoleScope } from '../access/console-auth.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { DraftParams } from './template-draft-schemas.ts'
import { discardTemplateDraft as expireDraft } from './template-draft-store.ts'

const DiscardedDraft = Type.Object({
  id: Type.String(),
  object: Type.Literal('template_draft'),
  discarded: Type.Literal(true),
})

export const discardTemplateDraft = defineRoute({
  operationId: 'discardTemplateDraft',
  method: 'DELETE',
  url: '/console/api/template_drafts/:id',
  summary: "Discard one of the member's template drafts",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { params: DraftParams, response: { 200: DiscardedDraft } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, deps) => {
    const done = await expireDraft(deps.db, consoleScope(scope), params.id, deps.clock.now())
    orNotFound(done || undefined, 'draft')
    return { id: params.id, object: 'template_draft' as const, discarded: true as const }
  },
})
