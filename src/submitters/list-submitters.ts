// GET /v1/submitters — docs/api.md#lists-and-filters: filters `status`, `submission_id`, `email`,
// newest first.
import { Type } from 'typebox'
import { Id, Page, PageQuery, StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { emailKey } from '../lib/email-address.ts'
import { apiMembersOf } from '../submissions/signer-groups.ts'
import { SUBMITTER_STATUSES, SubmitterSummary, toApiSubmitter } from '../submissions/submission-schemas.ts'
import { listSubmitters as selectSubmitters } from '../submissions/submission-store.ts'

const ListSubmittersQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(SUBMITTER_STATUSES)),
    submission_id: Type.Optional(Id('sub')),
    email: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 320,
        description:
          'Exact address, case-insensitive; an internationalized domain matches in either form (müller-bau.de or xn--mller-bau-q9a.de)',
      }),
    ),
  },
  { additionalProperties: false },
)

export const listSubmitters = defineRoute({
  operationId: 'listSubmitters',
  method: 'GET',
  url: '/v1/submitters',
  summary: 'List submitters',
  tag: 'Submitters',
  schema: { querystring: ListSubmittersQuery, response: { 200: Page(SubmitterSummary, 'SubmitterList') } },
  errors: [],
  queryErrors: {
    limit: 'invalid_pagination',
    cursor: 'invalid_pagination',
    status: 'invalid_status',
    submission_id: 'invalid_submission_id',
    email: 'invalid_email',
  },
  handler: async ({ query, scope }, deps) => {
    const { db, keys, config } = deps
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = {
      list: 'listSubmitters',
      scope,
      filters: { ...filters, email: filters.email === undefined ? undefined : emailKey(filters.email) },
    }
    const rows = await selectSubmitters(
      db,
      scope,
      filters,
      decodeCursor(keys.cursor, cursor, context),
      limit + 1,
    )
    const members = await apiMembersOf(deps, db, scope, rows.slice(0, limit))
    return toPage(keys.cursor, rows, limit, context, (row) =>
      toApiSubmitter(row, config.signingUrl, members.get(row.id)),
    )
  },
})
