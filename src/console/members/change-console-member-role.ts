// POST /console/api/members/{id}/role — makes a member admin or editor; the account keeps at least
// one admin (409 last_admin). The member's open sessions take the new role on their next request.
import { Type } from 'typebox'
import { findMember, MEMBER_ROLES, setMemberRole } from '../../accounts/member-store.ts'
import { orNotFound } from '../../errors.ts'
import { IdParams, StringEnum } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { Member, toApiMember } from './member-schemas.ts'

export const changeConsoleMemberRole = defineRoute({
  operationId: 'changeConsoleMemberRole',
  method: 'POST',
  url: '/console/api/members/:id/role',
  summary: "Change a console member's role",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: {
    params: IdParams('mem'),
    body: Type.Object({ role: StringEnum(MEMBER_ROLES) }, { additionalProperties: false }),
    response: { 200: Member },
  },
  errors: ['resource_not_found', 'last_admin'],
  handler: ({ params, body, scope }, { db, engine }) =>
    db.transaction().execute(async (tx) => {
      const member = orNotFound(await findMember(tx, scope.accountId, params.id), 'member')
      return toApiMember(await setMemberRole(tx, engine, member, body.role))
    }),
})
