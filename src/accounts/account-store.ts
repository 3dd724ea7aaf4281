import type { Environment, Executor, Scope } from '../db/tables.ts'
import type { AuthenticatedKey } from '../http/caller.ts'
import type { Clock } from '../lib/clock.ts'
import { toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import { generateApiKey, hashApiKey, keyHint } from './api-keys.ts'

export interface IssuedKey {
  id: string
  environment: Environment
  /** The secret itself: shown once, never stored. */
  key: string
}

interface Ctx {
  clock: Clock
  ids: IdGenerator
}

export async function insertAccount(
  db: Executor,
  { clock, ids }: Ctx,
  input: { name: string; ownerEmail?: string | null },
): Promise<string> {
  const id = ids.next('acct')
  await db
    .insertInto('accounts')
    .values({ id, name: input.name, owner_email: input.ownerEmail ?? null, created_at: toIso(clock.now()) })
    .execute()
  return id
}

export async function findAccount(db: Executor, accountId: string) {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst()
}

export async function countAccounts(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertApiKey(
  db: Executor,
  { clock, ids }: Ctx,
  accountId: string,
  environment: Environment,
  /** What the key is for (≤ 100 characters, docs/api.md#keys); none by default. */
  name: string | null = null,
): Promise<IssuedKey> {
  const key = generateApiKey(environment)
  const id = ids.next('key')
  await db
    .insertInto('api_keys')
    .values({
      id,
      account_id: accountId,
      environment,
      key_hash: hashApiKey(key),
      key_hint: keyHint(key),
      name,
      created_at: toIso(clock.now()),
      revoked_at: null,
    })
    .execute()
  return { id, environment, key }
}

/** The scope of a live (not revoked) key, looked up by the hash of the presented secret. */
export async function findActiveKey(db: Executor, key: string): Promise<AuthenticatedKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'environment'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return row && { keyId: row.id, accountId: row.account_id, environment: row.environment }
}

/** Revokes a key; false when no such key exists or it was already revoked. */
export async function revokeApiKey(db: Executor, clock: Clock, keyId: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: toIso(clock.now()) })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Name and hint of each of these keys of the scope (the request logs name the key of each call). */
export async function keyLabelsOf(db: Executor, scope: Scope, ids: readonly string[]) {
  if (ids.length === 0) return []
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_hint'])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('id', 'in', [...ids])
    .execute()
}
