// GET /v1/submissions — docs/api.md#lists-and-filters: filters `status`, `template_id` and
// `bulk_send_id` (docs/api.md#bulk-send), newest first.
import { Type } from 'typebox'
import { Id, Page, PageQuery, StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { apiMembersOf } from './signer-groups.ts'
import { SUBMISSION_STATUSES, Submission, toApiSubmission } from './submission-schemas.ts'
import { listSubmissions as selectSubmissions, submittersOf } from './submission-store.ts'

const ListSubmissionsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(SUBMISSION_STATUSES)),
    template_id: Type.Optional(Id('tpl')),
    bulk_send_id: Type.Optional(Id('bulk', 'Only the submissions of this bulk send (docs/api.md#bulk-send)')),
  },
  { additionalProperties: false },
)

export const listSubmissions = defineRoute({
  operationId: 'listSubmissions',
  method: 'GET',
  url: '/v1/submissions',
  summary: 'List submissions',
  tag: 'Submissions',
  schema: { querystring: ListSubmissionsQuery, response: { 200: Page(Submission, 'SubmissionList') } },
  errors: [],
  queryErrors: {
    limit: 'invalid_pagination',
    cursor: 'invalid_pagination',
    status: 'invalid_status',
    template_id: 'invalid_template_id',
    bulk_send_id: 'invalid_bulk_send_id',
  },
  handler: async ({ query, scope }, deps) => {
    const { db, keys, config } = deps
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = { list: 'listSubmissions', scope, filters }
    const rows = await selectSubmissions(
      db,
      scope,
      filters,
      decodeCursor(keys.cursor, cursor, context),
      limit + 1,
    )
    const submitters = await submittersOf(
      db,
      scope,
      rows.slice(0, limit).map((r) => r.id),
    )
    const members = await apiMembersOf(deps, db, scope, submitters)
    return toPage(keys.cursor, rows, limit, context, (row) =>
      toApiSubmission(
        row,
        submitters.filter((s) => s.submission_id === row.id),
        config,
        members,
      ),
    )
  },
})
