// POST /console/api/members/{id}/remove — removes a member and ends their sessions at once; the
// account keeps at least one admin (409 last_admin).
import { Type } from 'typebox'
import { findMember, removeMember } from '../../accounts/member-store.ts'
import { orNotFound } from '../../errors.ts'
import { Id, IdParams } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'

export const RemovedMember = Type.Object({
  object: Type.Literal('member'),
  id: Id('mem'),
  removed: Type.Literal(true),
})

export const removeConsoleMember = defineRoute({
  operationId: 'removeConsoleMember',
  method: 'POST',
  url: '/console/api/members/:id/remove',
  summary: 'Remove a console member from the account',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { params: IdParams('mem'), response: { 200: RemovedMember } },
  errors: ['resource_not_found', 'last_admin'],
  handler: ({ params, scope }, deps) =>
    deps.db.transaction().execute(async (tx) => {
      const member = orNotFound(await findMember(tx, scope.accountId, params.id), 'member')
      await removeMember(tx, deps, member)
      return { object: 'member', id: member.id, removed: true } as const
    }),
})
