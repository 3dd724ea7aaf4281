// POST /console/api/members — adds a person to the account. No mail is sent: they ask for a
// sign-in link at /console/sign-in with their address (docs/console.md).
import { Type } from 'typebox'
import { insertMember, MEMBER_ROLES } from '../../accounts/member-store.ts'
import { isUniqueViolation } from '../../db/dialect.ts'
import { ApiError } from '../../errors.ts'
import { Email, StringEnum } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { checkDeliverable } from '../../mail/address-delivery.ts'
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
        email: Email,
        role: StringEnum(MEMBER_ROLES),
      },
      { additionalProperties: false },
    ),
    response: { 201: Member },
  },
  errors: ['member_already_exists', 'email_not_deliverable'],
  handler: async ({ body, scope }, deps) => {
    // A member signs in by a mailed link: an address no mail could reach is refused.
    await checkDeliverable(deps.mailer, [{ param: 'email', email: body.email }])
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
