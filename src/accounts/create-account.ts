import type { Db, Tx } from '../db/tables.ts'
import type { Clock } from '../lib/clock.ts'
import { toIso } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import { countAccounts, insertAccount, insertApiKey } from './account-store.ts'
import { insertMember } from './member-store.ts'

export interface CreatedAccount {
  account_id: string
  test_key: string
  live_key: string
}

interface Ctx {
  db: Db
  clock: Clock
  ids: IdGenerator
}

interface AccountInput {
  name: string
  ownerEmail?: string | null
}

async function insertAccountWithKeys(
  tx: Tx,
  ctx: Omit<Ctx, 'db'>,
  input: AccountInput,
): Promise<CreatedAccount> {
  const accountId = await insertAccount(tx, ctx, input)
  // The owner signs in to the console as the account's first admin.
  if (input.ownerEmail) await insertMember(tx, ctx, { accountId, email: input.ownerEmail, role: 'admin' })
  const test = await insertApiKey(tx, ctx, accountId, 'test')
  const live = await insertApiKey(tx, ctx, accountId, 'live')
  return { account_id: accountId, test_key: test.key, live_key: live.key }
}

/** An account with one test and one live key (`accounts create` in docs/operations.md#the-paraph-command). */
export async function createAccount({ db, clock, ids }: Ctx, input: AccountInput): Promise<CreatedAccount> {
  return db.transaction().execute((tx) => insertAccountWithKeys(tx, { clock, ids }, input))
}

/**
 * docs/operations.md#the-paraph-command: the very first start against an empty database creates a
 * default account. A bootstrap row claimed with ON CONFLICT makes this happen once even when
 * several processes start together; an account made earlier by the CLI also counts as "not empty".
 */
export async function createDefaultAccountOnce({ db, clock, ids }: Ctx): Promise<CreatedAccount | null> {
  return db.transaction().execute(async (tx) => {
    const claimed = await tx
      .insertInto('bootstrap')
      .values({ name: 'default_account', created_at: toIso(clock.now()) })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst()
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1 || (await countAccounts(tx)) > 0) return null
    return insertAccountWithKeys(tx, { clock, ids }, { name: 'Default account' })
  })
}
