// GET /v1/bulk_sends/{id}/rows — docs/api.md#bulk-send: the rows in row order, by status, each with
// its submission or its errors. The cursor is the last row number served, sealed as every cursor is.
import { Type } from 'typebox'
import { orNotFound } from '../errors.ts'
import { IdParams, Page, PageQuery, StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, encodeCursor, type ListContext } from '../http/pagination.ts'
import { BULK_ROW_STATUSES, BulkSendRow, toApiBulkSendRow } from './bulk-send-schemas.ts'
import { findBulkSend, listRows } from './bulk-send-store.ts'

export const listBulkSendRows = defineRoute({
  operationId: 'listBulkSendRows',
  method: 'GET',
  url: '/v1/bulk_sends/:id/rows',
  summary: "List a bulk send's rows",
  tag: 'Bulk sends',
  schema: {
    params: IdParams('bulk'),
    querystring: Type.Object(
      { ...PageQuery, status: Type.Optional(StringEnum(BULK_ROW_STATUSES)) },
      { additionalProperties: false },
    ),
    response: { 200: Page(BulkSendRow, 'BulkSendRowList') },
  },
  errors: ['resource_not_found'],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination', status: 'invalid_status' },
  handler: async ({ params, query, scope }, { db, keys }) => {
    const job = orNotFound(await findBulkSend(db, scope, params.id), 'bulk send')
    const { limit = 20, cursor, status } = query
    const context: ListContext = { list: 'listBulkSendRows', scope, filters: { id: job.id, status } }
    const afterRow = Number(decodeCursor(keys.cursor, cursor, context)?.id ?? 0)
    const rows = await listRows(db, job.id, status, afterRow, limit + 1)
    const served = rows.slice(0, limit)
    const last = served.at(-1)
    return {
      data: served.map(toApiBulkSendRow),
      has_more: rows.length > limit,
      next_cursor:
        rows.length > limit && last
          ? encodeCursor(keys.cursor, { createdAt: '', id: String(last.row) }, context)
          : null,
    }
  },
})
