// POST /console/api/keys/{id}/revoke — revokes a key of the session's environment at once (every
// API process stops accepting it within a second, accounts/key-cache.ts). Revoking a revoked key
// answers the same key, unchanged.
import { orNotFound } from '../../errors.ts'
import { IdParams } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { findScopeKey, revokeScopeKey, toConsoleKey } from './console-key-store.ts'
import { ConsoleApiKey } from './key-schemas.ts'

export const revokeConsoleKey = defineRoute({
  operationId: 'revokeConsoleKey',
  method: 'POST',
  url: '/console/api/keys/:id/revoke',
  summary: "Revoke an API key of the session's environment",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { params: IdParams('key'), response: { 200: ConsoleApiKey } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, { db, clock, keyCache }) => {
    const revoked = await db.transaction().execute(async (tx) => {
      orNotFound(await findScopeKey(tx, scope, params.id), 'API key')
      await revokeScopeKey(tx, clock, scope, params.id)
      return toConsoleKey(orNotFound(await findScopeKey(tx, scope, params.id), 'API key'))
    })
    // Once committed: this process refuses the key from its next request; the others within a second.
    keyCache.forget(params.id)
    return revoked
  },
})
