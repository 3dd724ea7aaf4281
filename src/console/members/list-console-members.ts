// GET /console/api/members — the account's members, oldest first.
import { Type } from 'typebox'
import { listMembers } from '../../accounts/member-store.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { Member, toApiMember } from './member-schemas.ts'

export const listConsoleMembers = defineRoute({
  operationId: 'listConsoleMembers',
  method: 'GET',
  url: '/console/api/members',
  summary: "The account's console members",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Member) }) } },
  errors: [],
  handler: async ({ scope }, { db }) => ({
    object: 'list' as const,
    data: (await listMembers(db, scope.accountId)).map(toApiMember),
  }),
})
