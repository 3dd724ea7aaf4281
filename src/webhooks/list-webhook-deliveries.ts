// GET /v1/webhook_endpoints/{id}/deliveries — the endpoint's deliveries, newest
// first, each with its attempts; `status` filters by outcome. Paginated like every list.
import { Type } from 'typebox'
import { orNotFound } from '../errors.ts'
import { IdParams, Page, PageQuery, StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { DELIVERY_STATES, toApiDelivery, WebhookDelivery } from './delivery-schemas.ts'
import { attemptsOf, listDeliveries } from './delivery-store.ts'
import { findEndpoint } from './endpoint-store.ts'

const ListWebhookDeliveriesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(DELIVERY_STATES, { description: 'Only deliveries in this state' })),
  },
  { additionalProperties: false },
)

export const listWebhookDeliveries = defineRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  url: '/v1/webhook_endpoints/:id/deliveries',
  summary: 'List the deliveries of a webhook endpoint',
  description: 'Each delivery with every attempt made: time, HTTP status or error, duration. Newest first.',
  tag: 'Webhooks',
  schema: {
    params: IdParams('whk'),
    querystring: ListWebhookDeliveriesQuery,
    response: { 200: Page(WebhookDelivery, 'WebhookDeliveryList') },
  },
  errors: ['resource_not_found'],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination', status: 'invalid_status' },
  handler: async ({ params, query, scope }, { db, keys }) => {
    orNotFound(await findEndpoint(db, scope, params.id), `webhook endpoint ${params.id}`)
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = { list: `listWebhookDeliveries:${params.id}`, scope, filters }
    const after = decodeCursor(keys.cursor, cursor, context)
    const rows = await listDeliveries(db, scope, params.id, filters, after, limit + 1)
    const attempts = await attemptsOf(
      db,
      rows.slice(0, limit).map((r) => r.id),
    )
    return toPage(keys.cursor, rows, limit, context, (row) => toApiDelivery(row, attempts))
  },
})
