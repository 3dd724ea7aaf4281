// `paraph migrate`, `paraph accounts create`, `paraph keys create|revoke`
// (docs/operations.md#the-paraph-command).
import { findAccount, insertApiKey, revokeApiKey } from '../accounts/account-store.ts'
import { KEY_NAME_MAX_LENGTH, keyName } from '../accounts/api-keys.ts'
import { createAccount } from '../accounts/create-account.ts'
import {
  deprecatedRoutes,
  describeOutcomes,
  notifyDeprecations,
  outcomesJson,
} from '../accounts/deprecation-notices.ts'
import { listAccountKeys } from '../accounts/key-activity.ts'
import { API_ROUTES } from '../app.ts'
import { migrate } from '../db/database.ts'
import { createDeps } from '../deps.ts'
import { isId } from '../lib/ids.ts'
import { CliError, loadConfig, withDeps } from './context.ts'
import { checkEmailDeliverable, emailOption } from './email-option.ts'

export async function migrateCommand(): Promise<void> {
  const deps = await createDeps(loadConfig())
  try {
    const applied = await migrate(deps.db, deps.engine)
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.')
  } finally {
    await deps.close()
  }
}

export async function accountsCreate(options: {
  name: string
  email?: string
  json?: boolean
}): Promise<void> {
  if (options.name.trim() === '' || options.name.length > 200)
    throw new CliError('--name must be 1 to 200 characters')
  const email = options.email === undefined ? undefined : emailOption(options.email)
  const created = await withDeps(async (deps) => {
    if (email !== undefined) await checkEmailDeliverable(deps, email)
    return createAccount(deps, { name: options.name.trim(), ownerEmail: email })
  })
  if (options.json) {
    console.log(JSON.stringify(created))
    return
  }
  console.log(`Account ${created.account_id} created. Keys are shown once and stored only as hashes:`)
  console.log(`  test key  ${created.test_key}`)
  console.log(`  live key  ${created.live_key}`)
}

export async function keysCreate(options: {
  account: string
  env: string
  name?: string
  json?: boolean
}): Promise<void> {
  if (options.env !== 'test' && options.env !== 'live') throw new CliError('--env must be test or live')
  const env = options.env
  const name = keyName(options.name)
  if (name !== null && name.length > KEY_NAME_MAX_LENGTH)
    throw new CliError(`--name must be at most ${KEY_NAME_MAX_LENGTH} characters`)
  if (!isId('acct', options.account))
    throw new CliError(`--account must be an account id (acct_…): ${options.account}`)
  const issued = await withDeps(async (deps) => {
    if (!(await findAccount(deps.db, options.account)))
      throw new CliError(`No such account: ${options.account}`)
    return insertApiKey(deps.db, deps, options.account, env, name)
  })
  if (options.json) {
    console.log(
      JSON.stringify({
        key_id: issued.id,
        account_id: options.account,
        environment: env,
        name,
        key: issued.key,
      }),
    )
    return
  }
  console.log(`Key ${issued.id} (${env}) created; shown once: ${issued.key}`)
}

export async function keysRevoke(keyId: string): Promise<void> {
  if (!isId('key', keyId)) throw new CliError(`KEY_ID must be a key id (key_…): ${keyId}`)
  const revoked = await withDeps((deps) => revokeApiKey(deps.db, deps.clock, keyId))
  if (!revoked) throw new CliError(`No active key ${keyId} (unknown or already revoked)`)
  console.log(`Key ${keyId} revoked.`)
}

/** `paraph keys list --account ACCT`: every key of the account, with when it was last used (to the minute). */
export async function keysList(options: { account: string; json?: boolean }): Promise<void> {
  if (!isId('acct', options.account))
    throw new CliError(`--account must be an account id (acct_…): ${options.account}`)
  const keys = await withDeps(async (deps) => {
    if (!(await findAccount(deps.db, options.account)))
      throw new CliError(`No such account: ${options.account}`)
    return listAccountKeys(deps.db, options.account)
  })
  if (options.json) {
    console.log(JSON.stringify(keys))
    return
  }
  for (const key of keys) {
    const revoked = key.revoked_at ? `revoked ${key.revoked_at}` : 'active'
    const used = key.last_used_at ? `last used ${key.last_used_at}` : 'never used'
    const named = key.name === null ? '' : `  ${JSON.stringify(key.name)}`
    console.log(
      `${key.id}  ${key.environment.padEnd(4)}  ${key.hint}  created ${key.created_at}  ${revoked}  ${used}${named}`,
    )
  }
}

/** `paraph deprecations notify [--dry-run] [--json]` (docs/deprecations.md#telling-the-developers): mails each account using a deprecated route, once. */
export async function deprecationsNotify(options: { dryRun?: boolean; json?: boolean }): Promise<void> {
  const dryRun = options.dryRun === true
  const outcomes = await withDeps((deps) => notifyDeprecations(deps, API_ROUTES, { dryRun }))
  const deprecated = deprecatedRoutes(API_ROUTES).length
  if (options.json) {
    console.log(JSON.stringify(outcomesJson(outcomes, deprecated, dryRun), null, 2))
    return
  }
  for (const line of describeOutcomes(outcomes, deprecated, dryRun)) console.log(line)
}
