// GET /v1/legal_holds — docs/privacy.md#legal-holds: newest first (docs/api.md#pagination), with
// `submission_id` the holds that name it, with `status` those active or released.
import { Type } from 'typebox'
import { Id, Page, PageQuery, StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { LegalHold, toApiLegalHold } from './legal-hold-schemas.ts'
import { heldSubmissions, listLegalHolds as selectLegalHolds } from './legal-hold-store.ts'

export const listLegalHolds = defineRoute({
  operationId: 'listLegalHolds',
  method: 'GET',
  url: '/v1/legal_holds',
  summary: 'List legal holds',
  tag: 'Privacy',
  schema: {
    querystring: Type.Object(
      {
        ...PageQuery,
        submission_id: Type.Optional(Id('sub', 'Only the holds that name this submission')),
        status: Type.Optional(StringEnum(['active', 'released'] as const)),
      },
      { additionalProperties: false },
    ),
    response: { 200: Page(LegalHold, 'LegalHoldList') },
  },
  errors: [],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination' },
  handler: async ({ query, scope }, { db, keys }) => {
    const { limit = 20, cursor, submission_id, status } = query
    const filters = {
      ...(submission_id ? { submissionId: submission_id } : {}),
      ...(status ? { status } : {}),
    }
    const context: ListContext = { list: 'listLegalHolds', scope, filters }
    const rows = await selectLegalHolds(
      db,
      scope,
      filters,
      decodeCursor(keys.cursor, cursor, context),
      limit + 1,
    )
    const held = await heldSubmissions(
      db,
      rows.slice(0, limit).map((r) => r.id),
    )
    return toPage(keys.cursor, rows, limit, context, (row) => toApiLegalHold(row, held.get(row.id) ?? []))
  },
})
