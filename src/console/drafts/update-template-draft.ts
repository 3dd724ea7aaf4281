// PATCH /console/api/template_drafts/:id — the editor's work saved as it goes (a moment after each
// change): the template's name and slug as typed and every field drawn, the whole state each time,
// so the last write is the draft. Half-typed work is kept (an empty name, a blank choice); the save
// as a template checks it. The draft's life is not lengthened: it ends 24 hours after the upload.
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { DraftParams, TemplateDraft, TemplateDraftStateBody, toApiDraft } from './template-draft-schemas.ts'
import { findTemplateDraft, saveTemplateDraftState } from './template-draft-store.ts'

export const updateTemplateDraft = defineRoute({
  operationId: 'updateTemplateDraft',
  method: 'PATCH',
  url: '/console/api/template_drafts/:id',
  summary: "Save the template editor's work on a draft",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { params: DraftParams, body: TemplateDraftStateBody, response: { 200: TemplateDraft } },
  errors: ['resource_not_found'],
  handler: async ({ params, body, scope }, deps) => {
    const now = deps.clock.now()
    const draft = orNotFound(await findTemplateDraft(deps.db, scope, params.id, now), 'draft')
    const saved = await saveTemplateDraftState(deps.db, scope, params.id, now, { ...draft.state, ...body })
    return toApiDraft(orNotFound(saved, 'draft'))
  },
})
