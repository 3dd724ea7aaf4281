// GET /console/api/keys — the account's API keys of the session's environment, newest first.
import { defineRoute } from '../../http/define-route.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { listScopeKeys, toConsoleKey } from './console-key-store.ts'
import { ConsoleApiKeyList } from './key-schemas.ts'

export const listConsoleKeys = defineRoute({
  operationId: 'listConsoleKeys',
  method: 'GET',
  url: '/console/api/keys',
  summary: "The account's API keys of the session's environment",
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  consoleRole: 'admin',
  schema: { response: { 200: ConsoleApiKeyList } },
  errors: [],
  handler: async ({ scope }, { db }) => ({
    object: 'list' as const,
    data: (await listScopeKeys(db, scope)).map(toConsoleKey),
  }),
})
