// GET /v1/webhook_endpoints — docs/api.md#endpoints: every endpoint of the key's account and
// environment, deleted ones included (`active: false`), newest first, paginated like every list.
import { Type } from 'typebox'
import { Page, PageQuery } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { listEndpoints } from './endpoint-store.ts'
import { toApiWebhookEndpoint, WebhookEndpoint } from './webhook-schemas.ts'

const ListWebhookEndpointsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const listWebhookEndpoints = defineRoute({
  operationId: 'listWebhookEndpoints',
  method: 'GET',
  url: '/v1/webhook_endpoints',
  summary: 'List webhook endpoints',
  tag: 'Webhooks',
  schema: {
    querystring: ListWebhookEndpointsQuery,
    response: { 200: Page(WebhookEndpoint, 'WebhookEndpointList') },
  },
  errors: [],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination' },
  handler: async ({ query, scope }, { db, keys, clock }) => {
    const { limit = 20, cursor } = query
    const context: ListContext = { list: 'listWebhookEndpoints', scope, filters: {} }
    const rows = await listEndpoints(db, scope, decodeCursor(keys.cursor, cursor, context), limit + 1)
    const now = clock.now()
    return toPage(keys.cursor, rows, limit, context, (row) => toApiWebhookEndpoint(row, now))
  },
})
