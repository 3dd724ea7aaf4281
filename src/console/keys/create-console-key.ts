// POST /console/api/keys — a new key in the session's environment, named when the body says so
// (`{ "name": … }`, at most 100 characters; no body or `{}` for none); its secret is in this answer
// only (stored as a hash, as every key).
import { insertApiKey } from '../../accounts/account-store.ts'
import { keyName } from '../../accounts/api-keys.ts'
import { orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { findScopeKey, toConsoleKey } from './console-key-store.ts'
import { CreateConsoleApiKeyRequest, CreatedConsoleApiKey } from './key-schemas.ts'

export const createConsoleKey = defineRoute({
  operationId: 'createConsoleKey',
  method: 'POST',
  url: '/console/api/keys',
  summary: "Create an API key in the session's environment",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { body: CreateConsoleApiKeyRequest, response: { 201: CreatedConsoleApiKey } },
  errors: [],
  handler: ({ body, scope }, deps) =>
    deps.db.transaction().execute(async (tx) => {
      const name = keyName(body?.name)
      const issued = await insertApiKey(tx, deps, scope.accountId, scope.environment, name)
      return { ...toConsoleKey(orNotFound(await findScopeKey(tx, scope, issued.id))), secret: issued.key }
    }),
})
