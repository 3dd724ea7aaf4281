// POST /console/api/sign_out — ends the session at once (the cookie stops working even where a
// copy of it survives) and clears the cookie.
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { consoleScope, sessionCookie } from './console-auth.ts'
import { endSession } from './console-session-store.ts'
import { SignedOut } from './session-schemas.ts'

export const signOutConsole = defineRoute({
  operationId: 'signOutConsole',
  method: 'POST',
  url: '/console/api/sign_out',
  summary: 'End the console session',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { response: { 200: SignedOut } },
  errors: [],
  handler: async ({ scope, reply }, { db, clock, config }) => {
    await endSession(db, clock, consoleScope(scope))
    reply.header('set-cookie', sessionCookie(null, config.publicUrl, 0))
    return { object: 'console_session', signed_out: true } as const
  },
})
