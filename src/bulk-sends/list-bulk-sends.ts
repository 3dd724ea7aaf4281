// GET /v1/bulk_sends — docs/api.md#bulk-send: the jobs, newest first (docs/api.md#pagination).
import { Type } from 'typebox'
import { Page, PageQuery } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { BulkSend, toApiBulkSend } from './bulk-send-schemas.ts'
import { listBulkSends as selectBulkSends } from './bulk-send-store.ts'

export const listBulkSends = defineRoute({
  operationId: 'listBulkSends',
  method: 'GET',
  url: '/v1/bulk_sends',
  summary: 'List bulk sends',
  tag: 'Bulk sends',
  schema: {
    querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
    response: { 200: Page(BulkSend, 'BulkSendList') },
  },
  errors: [],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination' },
  handler: async ({ query, scope }, { db, keys }) => {
    const { limit = 20, cursor } = query
    const context: ListContext = { list: 'listBulkSends', scope, filters: {} }
    const rows = await selectBulkSends(db, scope, decodeCursor(keys.cursor, cursor, context), limit + 1)
    return toPage(keys.cursor, rows, limit, context, toApiBulkSend)
  },
})
