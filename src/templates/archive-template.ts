// DELETE /v1/templates/{id} — archives (docs/api.md#templates): submissions can no longer be
// created from it.
import { Type } from 'typebox'
import { orNotFound } from '../errors.ts'
import { Id, IdParams, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { archiveTemplate as archive } from './template-store.ts'

export const ArchivedTemplate = Type.Object(
  {
    id: Id('tpl'),
    object: Type.Literal('template'),
    status: Type.Literal('archived'),
    archived: Type.Literal(true),
    archived_at: Timestamp,
  },
  { title: 'ArchivedTemplate' },
)

export const archiveTemplate = defineRoute({
  operationId: 'archiveTemplate',
  method: 'DELETE',
  url: '/v1/templates/:id',
  summary: 'Archive a template',
  description: 'Archiving an archived template changes nothing and answers the same confirmation.',
  tag: 'Templates',
  schema: { params: IdParams('tpl'), response: { 200: ArchivedTemplate } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db, clock }) => {
    const template = orNotFound(
      await archive(db, scope, params.id, toIso(clock.now())),
      `template ${params.id}`,
    )
    return {
      id: template.id,
      object: 'template' as const,
      status: 'archived' as const,
      archived: true as const,
      archived_at: template.archived_at ?? template.updated_at,
    }
  },
})
