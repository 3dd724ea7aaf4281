// GET /v1/request_logs — the caller's own requests of the last 7 days, newest
// first, filtered by `status` (a code or a class), `route`, `request_id` and `since`.
import { type Static, Type } from 'typebox'
import { Environment, ErrorBody, Id, Page, PageQuery, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { type RequestLogRow, listRequestLogs as selectRequestLogs } from './request-log-store.ts'

const EXAMPLE = {
  id: 'req_4f9XqK2mR8sT1vW3yZ5bC7dE',
  object: 'request_log',
  request_id: 'req_4f9XqK2mR8sT1vW3yZ5bC7dE',
  time: '2026-11-22T10:15:30.123Z',
  method: 'POST',
  route: '/v1/submissions',
  path: '/v1/submissions',
  status: 422,
  error_code: 'template_archived',
  key_id: 'key_8hT2mQ4rX7vB1nC5zL9wK3pJ',
  environment: 'test',
  idempotency_key: '5b0f7a52-8c1e-4a7e-9d43-2f6a1c3e9b10',
  replayed: false,
  duration_ms: 4.21,
  client_ip: '203.0.113.7',
  user_agent: 'paraph-node/1.4.0',
  error: {
    error: { type: 'invalid_request_error', code: 'template_archived', message: 'Template is archived.' },
  },
}

export const RequestLog = Type.Object(
  {
    id: Id('req', 'The request id, as sent in its `Request-Id` response header'),
    object: Type.Literal('request_log'),
    request_id: Id('req', 'Same as `id`'),
    time: { ...Timestamp, description: 'When the answer was sent (ISO 8601, UTC)' },
    method: Type.String(),
    route: Type.Union([Type.String(), Type.Null()], {
      description:
        'The route as the OpenAPI document writes it (`/v1/submissions/{id}`); null when no route matched',
    }),
    path: Type.String({ description: 'The path requested, without its query string' }),
    status: Type.Integer({ description: 'HTTP status answered' }),
    error_code: Type.Union([Type.String(), Type.Null()], { description: '`error.code` of a failed request' }),
    // A console request (docs/console.md) is made by a member, not a key: its member id.
    key_id: Type.String({
      pattern: '^(key|mem)_[0-9A-Za-z]{24}$',
      description:
        'The API key used (`key_…`), or the console member (`mem_…`) for a request made in the web console',
      examples: ['key_4f9XqK2mR8sT1vW3yZ5bC7dE'],
    }),
    environment: Environment,
    idempotency_key: Type.Union([Type.String(), Type.Null()]),
    replayed: Type.Boolean({
      description: 'The answer was an idempotent replay (`Idempotent-Replayed: true`)',
    }),
    duration_ms: Type.Number({ description: 'Time from the request to its answer, in milliseconds' }),
    client_ip: Type.String(),
    user_agent: Type.Union([Type.String(), Type.Null()], { description: 'Up to 512 characters' }),
    error: Type.Union([ErrorBody, Type.Null()], {
      description: 'The error envelope sent, for a failed request; no other body is ever kept',
    }),
  },
  { title: 'RequestLog', examples: [EXAMPLE] },
)
export type RequestLog = Static<typeof RequestLog>

const ListRequestLogsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(
      Type.String({
        pattern: '^[1-5]([0-9]{2}|xx)$',
        description: 'An exact status (`404`) or a class (`2xx`, `4xx`, `5xx`)',
        examples: ['4xx'],
      }),
    ),
    route: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'A route as the OpenAPI document writes it, e.g. `/v1/submissions/{id}`',
      }),
    ),
    request_id: Type.Optional(Id('req', 'Only the request of this id')),
    since: Type.Optional({ ...Timestamp, description: 'Only requests answered at or after this instant' }),
  },
  { additionalProperties: false },
)

function toApiRequestLog(row: RequestLogRow): RequestLog {
  const { created_at: time, ...fields } = row
  return { ...fields, object: 'request_log', request_id: row.id, time }
}

export const listRequestLogs = defineRoute({
  operationId: 'listRequestLogs',
  method: 'GET',
  url: '/v1/request_logs',
  summary: 'List request logs',
  description:
    "The key's account and environment's API requests of the last 7 days, newest first. Logs are written in batches: a request appears within a second of its answer.",
  tag: 'Request logs',
  schema: { querystring: ListRequestLogsQuery, response: { 200: Page(RequestLog, 'RequestLogList') } },
  errors: [],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination', status: 'invalid_status' },
  handler: async ({ query, scope }, { db, keys, clock }) => {
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = { list: 'listRequestLogs', scope, filters }
    const after = decodeCursor(keys.cursor, cursor, context)
    const since = filters.since === undefined ? undefined : new Date(filters.since).toISOString()
    const rows = await selectRequestLogs(db, scope, { ...filters, since }, after, limit + 1, clock.epochMs())
    return toPage(keys.cursor, rows, limit, context, toApiRequestLog)
  },
})
