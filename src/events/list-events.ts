// GET /v1/events — docs/api.md#events: the journal of transitions, newest first.
import { type Static, Type } from 'typebox'
import { Id, Page, PageQuery, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { decodeCursor, type ListContext, toPage } from '../http/pagination.ts'
import { listEvents as selectEvents } from './event-store.ts'
import { EVENT_TYPES } from './event-types.ts'

export const Event = Type.Object(
  {
    id: Id('evt'),
    object: Type.Literal('event'),
    type: StringEnum(EVENT_TYPES),
    created_at: Timestamp,
    submission_id: Type.Union([Id('sub'), Type.Null()]),
    submitter_id: Type.Union([Id('sbm'), Type.Null()]),
    data: Type.Object(
      {},
      { additionalProperties: true, description: 'The object as it was after the event' },
    ),
  },
  { title: 'Event' },
)
export type Event = Static<typeof Event>

const ListEventsQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(StringEnum(EVENT_TYPES, { description: 'Only events of this type' })),
    submission_id: Type.Optional(Id('sub', 'Only events of this submission')),
  },
  { additionalProperties: false },
)

export const listEvents = defineRoute({
  operationId: 'listEvents',
  method: 'GET',
  url: '/v1/events',
  summary: 'List journal events',
  description:
    "Every status change of the key's environment, newest first, including the journal-only `submitter.*` events.",
  tag: 'Events',
  schema: { querystring: ListEventsQuery, response: { 200: Page(Event, 'EventList') } },
  errors: [],
  queryErrors: {
    limit: 'invalid_pagination',
    cursor: 'invalid_pagination',
    type: 'invalid_type',
    submission_id: 'invalid_submission_id',
  },
  handler: async ({ query, scope }, { db, keys }) => {
    const { limit = 20, cursor, ...filters } = query
    const context: ListContext = { list: 'listEvents', scope, filters }
    const after = decodeCursor(keys.cursor, cursor, context)
    const rows = await selectEvents(db, scope, filters, after, limit + 1)
    return toPage(keys.cursor, rows, limit, context, (row) => ({
      id: row.id,
      object: 'event' as const,
      type: row.type as Event['type'],
      created_at: row.created_at,
      submission_id: row.submission_id,
      submitter_id: row.submitter_id,
      data: JSON.parse(row.data) as Record<string, unknown>,
    }))
  },
})
