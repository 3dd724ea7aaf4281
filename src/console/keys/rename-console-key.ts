// POST /console/api/keys/{id}/name — names a key of the session's environment, or removes its name
// (`null` or blank): what it is for, shown in the key list and the request logs (docs/console.md).
// A revoked key may be named too (its calls stay in the logs for 7 days).
import { keyName } from '../../accounts/api-keys.ts'
import { orNotFound } from '../../errors.ts'
import { IdParams } from '../../http/common-schemas.ts'
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { findScopeKey, renameScopeKey, toConsoleKey } from './console-key-store.ts'
import { ConsoleApiKey, RenameConsoleApiKeyRequest } from './key-schemas.ts'

export const renameConsoleKey = defineRoute({
  operationId: 'renameConsoleKey',
  method: 'POST',
  url: '/console/api/keys/:id/name',
  summary: "Name an API key of the session's environment",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { params: IdParams('key'), body: RenameConsoleApiKeyRequest, response: { 200: ConsoleApiKey } },
  errors: ['resource_not_found'],
  handler: ({ params, body, scope }, { db }) =>
    db.transaction().execute(async (tx) => {
      orNotFound(await findScopeKey(tx, scope, params.id), 'API key')
      await renameScopeKey(tx, scope, params.id, keyName(body.name))
      return toConsoleKey(orNotFound(await findScopeKey(tx, scope, params.id), 'API key'))
    }),
})
