// GET /v1/request_logs — the caller's own requests of the last 7 days, newest first, filtered by
// `status` (a code or a class), `route` (a route, or a method and a path as a log shows them:
// route-filter.ts), `key_id` (a key or a console member), `source` (API keys or the console),
// `request_id` and `since`. Each log names who made it: the key's name and prefix, or the member's
// address (docs/request-logs.md#what-a-log-holds).
import { type Static, Type } from 'typebox'
import { keyLabelsOf } from '../accounts/account-store.ts'
import { memberEmailsOf } from '../accounts/member-store.ts'
import type { Executor, Scope } from '../db/tables.ts'
import { Environment, ErrorBody, Id, Page, PageQuery, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { type RequestLogRow, listRequestLogs as selectRequestLogs } from './request-log-store.ts'
import { parseRouteFilter } from './route-filter.ts'

const SOURCES = ['api_key', 'console'] as const
const CALLER_ID = '^(key|mem)_[0-9A-Za-z]{24}$'

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
  source: 'api_key',
  key_name: 'Billing backend',
  key_prefix: 'sk_test_4eC3',
  member_email: null,
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
      pattern: CALLER_ID,
      description:
        'The API key used (`key_…`), or the console member (`mem_…`) for a request made in the web console',
      examples: ['key_4f9XqK2mR8sT1vW3yZ5bC7dE'],
    }),
    source: StringEnum(SOURCES, {
      description: '`api_key`: made with an API key; `console`: made by a member in the web console',
    }),
    key_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The API key’s name, when it has one; null for a console request',
    }),
    key_prefix: Type.Union([Type.String(), Type.Null()], {
      description: 'The API key’s first 12 characters (`sk_test_4eC3`); null for a console request',
    }),
    member_email: Type.Union([Type.String(), Type.Null()], {
      description: 'The address of the console member who made the request; null for an API key’s',
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
        maxLength: 2100,
        description:
          'A route as `route` shows it (`/v1/submissions/{id}`), or a method and a path as a log line shows them: `POST /v1/submissions`, `GET /v1/submissions/sub_123` (a concrete path stands for the route that answers it; a path no route answers, for itself)',
        examples: ['POST /v1/submissions'],
      }),
    ),
    key_id: Type.Optional(
      Type.String({
        pattern: CALLER_ID,
        description: 'Only the requests of this API key (`key_…`) or console member (`mem_…`)',
      }),
    ),
    source: Type.Optional(
      StringEnum(SOURCES, {
        description: 'Only the requests made with API keys (`api_key`) or in the web console (`console`)',
      }),
    ),
    request_id: Type.Optional(Id('req', 'Only the request of this id')),
    since: Type.Optional({ ...Timestamp, description: 'Only requests answered at or after this instant' }),
  },
  { additionalProperties: false },
)

interface Callers {
  keys: Map<string, { name: string | null; key_hint: string }>
  members: Map<string, string>
}

/** Who made each of these requests: the keys' names and hints, the members' addresses. */
async function callersOf(db: Executor, scope: Scope, rows: RequestLogRow[]): Promise<Callers> {
  const ids = [...new Set(rows.map((row) => row.key_id))]
  const [keys, members] = await Promise.all([
    keyLabelsOf(
      db,
      scope,
      ids.filter((id) => id.startsWith('key_')),
    ),
    memberEmailsOf(
      db,
      scope.accountId,
      ids.filter((id) => id.startsWith('mem_')),
    ),
  ])
  return {
    keys: new Map(keys.map((key) => [key.id, key])),
    members: new Map(members.map((member) => [member.id, member.email])),
  }
}

function toApiRequestLog(row: RequestLogRow, callers: Callers): RequestLog {
  const { created_at: time, ...fields } = row
  const key = callers.keys.get(row.key_id)
  const viaConsole = row.key_id.startsWith('mem_')
  return {
    ...fields,
    object: 'request_log',
    request_id: row.id,
    time,
    source: viaConsole ? 'console' : 'api_key',
    key_name: key?.name ?? null,
    key_prefix: key ? key.key_hint.replace(/…$/, '') : null,
    member_email: callers.members.get(row.key_id) ?? null,
  }
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
  errors: ['invalid_request'],
  queryErrors: { limit: 'invalid_pagination', cursor: 'invalid_pagination', status: 'invalid_status' },
  handler: async ({ query, scope, routes }, { db, keys, clock }) => {
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = { list: 'listRequestLogs', scope, filters }
    const after = decodeCursor(keys.cursor, cursor, context)
    const { route, ...others } = filters
    const since = filters.since === undefined ? undefined : new Date(filters.since).toISOString()
    const byRoute = route === undefined ? {} : parseRouteFilter(route, routes)
    const rows = await selectRequestLogs(
      db,
      scope,
      { ...others, ...byRoute, since },
      after,
      limit + 1,
      clock.epochMs(),
    )
    const callers = await callersOf(db, scope, rows.slice(0, limit))
    return toPage(keys.cursor, rows, limit, context, (row) => toApiRequestLog(row, callers))
  },
})
