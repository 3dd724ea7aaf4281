// The account's API keys as the console shows them: the session's environment only, never a
// secret (only its first 12 characters, kept as the key's hint).
import type { ApiKeysTable, Executor, Scope } from '../../db/tables.ts'
import type { Clock } from '../../lib/clock.ts'
import { toIso } from '../../lib/clock.ts'
import type { ConsoleApiKey } from './key-schemas.ts'

type KeyRow = Pick<
  ApiKeysTable,
  'id' | 'name' | 'environment' | 'key_hint' | 'created_at' | 'last_used_at' | 'revoked_at'
>

const COLUMNS = ['id', 'name', 'environment', 'key_hint', 'created_at', 'last_used_at', 'revoked_at'] as const

export function toConsoleKey(row: KeyRow): ConsoleApiKey {
  return {
    object: 'api_key',
    id: row.id,
    name: row.name,
    environment: row.environment,
    prefix: row.key_hint.replace(/…$/, ''),
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  }
}

export async function listScopeKeys(db: Executor, scope: Scope): Promise<KeyRow[]> {
  return db
    .selectFrom('api_keys')
    .select(COLUMNS)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

export async function findScopeKey(db: Executor, scope: Scope, id: string): Promise<KeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .select(COLUMNS)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Revokes the key when still active; a revoked key stays as it was (the answer is the same). */
export async function revokeScopeKey(db: Executor, clock: Clock, scope: Scope, id: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: toIso(clock.now()) })
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Names a key of the scope (null: no name), revoked or not. */
export async function renameScopeKey(
  db: Executor,
  scope: Scope,
  id: string,
  name: string | null,
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ name })
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('id', '=', id)
    .execute()
}
