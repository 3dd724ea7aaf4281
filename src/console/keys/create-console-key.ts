// POST /console/api/keys — a new key in the session's environment; its secret is in this answer
// only (stored as a hash, as every key).
import { insertApiKey } from '../../accounts/account-store.ts'
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { findScopeKey, toConsoleKey } from './console-key-store.ts'
import { CreatedConsoleApiKey } from './key-schemas.ts'

export const createConsoleKey = defineRoute({
  operationId: 'createConsoleKey',
  method: 'POST',
  url: '/console/api/keys',
  summary: "Create an API key in the session's environment",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { response: { 201: CreatedConsoleApiKey } },
  errors: [],
  handler: ({ scope }, deps) =>
    deps.db.transaction().execute(async (tx) => {
      const issued = await insertApiKey(tx, deps, scope.accountId, scope.environment)
      return { ...toConsoleKey(orNotFound(await findScopeKey(tx, scope, issued.id))), secret: issued.key }
    }),
})
