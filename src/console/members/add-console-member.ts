// POST /console/api/members — adds a person to the account. No mail is sent: they ask for a
// sign-in link at /console/sign-in with their address (docs/console.md).
import { Type } from 'typebox'
import { insertMember, MEMBER_ROLES } from '../../accounts/member-store.ts'
import { isUniqueViolation } from '../../db/dialect.ts'
import { ApiError } from '../../errors.ts'
import { StringEnum } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { EMAIL_PATTERN } from '../access/create-sign-in-links.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { Member, toApiMember } from './member-schemas.ts'

export const addConsoleMember = defineRoute({
  operationId: 'addConsoleMember',
  method: 'POST',
  url: '/console/api/members',
  summary: 'Add a console member to the account',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: {
    body: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 320, pattern: EMAIL_PATTERN }),
        role: StringEnum(MEMBER_ROLES),
      },
      { additionalProperties: false },
    ),
    response: { 201: Member },
  },
  errors: ['member_already_exists'],
  handler: async ({ body, scope }, deps) => {
    try {
      return await deps.db.transaction().execute(async (tx) => {
        const input = { accountId: scope.accountId, email: body.email, role: body.role }
        return toApiMember(await insertMember(tx, deps, input))
      })
    } catch (error) {
      // Two admins adding the same address at once: the unique index decides.
      if (isUniqueViolation(deps.engine, error)) {
        throw new ApiError('member_already_exists', `${body.email} is already a member of this account.`)
      }
      throw error
    }
  },
})
