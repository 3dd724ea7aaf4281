// GET /console/api/template_drafts — the member's own drafts still open (not expired, not yet made a
// template), last worked on first: the editor offers to resume them. A member sees only theirs.
import { defineRoute } from '../../http/define-route.ts'
import { consoleScope } from '../access/console-auth.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { TemplateDraftList, toApiDraft } from './template-draft-schemas.ts'
import { listOpenTemplateDrafts } from './template-draft-store.ts'

/** At most this many: the editor offers the latest; the others expire within a day. */
const LISTED = 10

export const listTemplateDrafts = defineRoute({
  operationId: 'listTemplateDrafts',
  method: 'GET',
  url: '/console/api/template_drafts',
  summary: "The member's template drafts not yet made templates",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { response: { 200: TemplateDraftList } },
  errors: [],
  handler: async ({ scope }, deps) => {
    const drafts = await listOpenTemplateDrafts(deps.db, consoleScope(scope), deps.clock.now(), LISTED)
    return { object: 'list' as const, data: drafts.map(toApiDraft) }
  },
})
