// GET /v1/templates — docs/api.md#lists-and-filters: filters `status` and `created_via`, newest
// first.
import { Type } from 'typebox'
import { Page, PageQuery, StringEnum } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { Template, toApiTemplate } from './template-schemas.ts'
import { listTemplates as selectTemplates } from './template-store.ts'

const ListTemplatesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(['active', 'archived'] as const)),
    created_via: Type.Optional(StringEnum(['ui', 'api'] as const)),
  },
  { additionalProperties: false },
)

export const listTemplates = defineRoute({
  operationId: 'listTemplates',
  method: 'GET',
  url: '/v1/templates',
  summary: 'List templates',
  description:
    'Newest first. The archived templates made behind inline-PDF submissions are not listed (GET them by id).',
  tag: 'Templates',
  schema: { querystring: ListTemplatesQuery, response: { 200: Page(Template, 'TemplateList') } },
  errors: [],
  queryErrors: {
    limit: 'invalid_pagination',
    cursor: 'invalid_pagination',
    status: 'invalid_status',
    created_via: 'invalid_created_via',
  },
  handler: async ({ query, scope }, { db, keys }) => {
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = { list: 'listTemplates', scope, filters }
    const rows = await selectTemplates(
      db,
      scope,
      filters,
      decodeCursor(keys.cursor, cursor, context),
      limit + 1,
    )
    return toPage(keys.cursor, rows, limit, context, toApiTemplate)
  },
})
