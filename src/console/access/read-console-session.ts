// GET /console/api/session — the signed-in member, their account and environment, and the CSRF
// token the console sends back on writes (docs/console.md).
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { consoleScope } from './console-auth.ts'
import { findOwnSession } from './console-session-store.ts'
import { ConsoleSession, toApiSession } from './session-schemas.ts'

export const readConsoleSession = defineRoute({
  operationId: 'readConsoleSession',
  method: 'GET',
  url: '/console/api/session',
  summary: 'The console session of the cookie',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: { response: { 200: ConsoleSession } },
  errors: [],
  handler: async ({ scope }, { db }) =>
    toApiSession(orNotFound(await findOwnSession(db, consoleScope(scope)))),
})
