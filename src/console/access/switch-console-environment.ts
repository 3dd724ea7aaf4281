// POST /console/api/session/environment — the console shows test or live data from now on; every
// /v1 call of the session is then scoped to that environment (docs/console.md).
import { Type } from 'typebox'
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { consoleScope } from './console-auth.ts'
import { findOwnSession, setSessionEnvironment } from './console-session-store.ts'
import { ConsoleSession, EnvironmentName, toApiSession } from './session-schemas.ts'

export const switchConsoleEnvironment = defineRoute({
  operationId: 'switchConsoleEnvironment',
  method: 'POST',
  url: '/console/api/session/environment',
  summary: "Switch the console session's environment",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  schema: {
    body: Type.Object({ environment: EnvironmentName }, { additionalProperties: false }),
    response: { 200: ConsoleSession },
  },
  errors: [],
  handler: ({ body, scope }, { db }) =>
    db.transaction().execute(async (tx) => {
      const own = consoleScope(scope)
      await setSessionEnvironment(tx, own, body.environment)
      return toApiSession(orNotFound(await findOwnSession(tx, own)))
    }),
})
