// `paraph members add|list`, `paraph console-link` (docs/console.md): the console's people, and a
// sign-in link printed for an operator instead of mailed.
import { findAccount } from '../accounts/account-store.ts'
import { insertMember, listMembers, membershipsOf } from '../accounts/member-store.ts'
import { insertSignInLink, LINK_TTL_MS } from '../console/access/sign-in-link-store.ts'
import { toApiMember } from '../console/members/member-schemas.ts'
import { ApiError } from '../errors.ts'
import { toIso } from '../lib/clock.ts'
import { isId } from '../lib/ids.ts'
import { CliError, withDeps } from './context.ts'
import { checkEmailDeliverable, emailOption } from './email-option.ts'

function checkAccount(account: string): void {
  if (!isId('acct', account)) throw new CliError(`--account must be an account id (acct_…): ${account}`)
}

export async function membersAdd(options: { account: string; email: string; role?: string; json?: boolean }) {
  checkAccount(options.account)
  const email = emailOption(options.email)
  const role = options.role ?? 'admin'
  if (role !== 'admin' && role !== 'editor') throw new CliError('--role must be admin or editor')
  const member = await withDeps(async (deps) => {
    if (!(await findAccount(deps.db, options.account)))
      throw new CliError(`No such account: ${options.account}`)
    await checkEmailDeliverable(deps, email)
    try {
      return await deps.db
        .transaction()
        .execute((tx) => insertMember(tx, deps, { accountId: options.account, email, role }))
    } catch (error) {
      if (error instanceof ApiError) throw new CliError(error.message)
      throw error
    }
  })
  if (options.json) {
    console.log(JSON.stringify({ ...toApiMember(member), account_id: options.account }))
    return
  }
  console.log(`Member ${member.id} (${member.email}, ${member.role}) added to ${options.account}.`)
}

export async function membersList(options: { account: string; json?: boolean }) {
  checkAccount(options.account)
  const members = await withDeps(async (deps) => {
    if (!(await findAccount(deps.db, options.account)))
      throw new CliError(`No such account: ${options.account}`)
    return listMembers(deps.db, options.account)
  })
  if (options.json) {
    console.log(JSON.stringify(members.map(toApiMember)))
    return
  }
  for (const m of members) {
    const signedIn = m.last_sign_in_at ? `last sign-in ${m.last_sign_in_at}` : 'never signed in'
    console.log(`${m.id}  ${m.role.padEnd(6)}  ${m.email}  added ${m.created_at}  ${signedIn}`)
  }
}

/** One link per account of the address (or only `--account`'s), valid 15 minutes and once. */
export async function consoleLink(options: { email: string; account?: string; json?: boolean }) {
  const email = emailOption(options.email)
  if (options.account !== undefined) checkAccount(options.account)
  const { links, publicUrlSet } = await withDeps(async (deps) => {
    const memberships = (await membershipsOf(deps.db, email)).filter(
      (m) => options.account === undefined || m.account_id === options.account,
    )
    if (memberships.length === 0) {
      const where = options.account ? ` of ${options.account}` : ''
      throw new CliError(
        `${email.toLowerCase()} is not a console member${where} (see \`paraph members add\`)`,
      )
    }
    const base = deps.config.publicUrl.replace(/\/+$/, '')
    const expiresAt = toIso(new Date(deps.clock.epochMs() + LINK_TTL_MS))
    const made = await deps.db.transaction().execute(async (tx) => {
      const out = []
      for (const m of memberships) {
        const token = await insertSignInLink(tx, deps.clock, m, 'cli')
        out.push({
          account_id: m.account_id,
          account_name: m.account_name,
          member_id: m.id,
          url: `${base}/console/sign-in/${token}`,
          expires_at: expiresAt,
        })
      }
      return out
    })
    return { links: made, publicUrlSet: deps.config.publicUrlSet }
  })
  if (options.json) {
    console.log(JSON.stringify(links))
    return
  }
  for (const link of links) {
    console.log(
      `${link.url}  (${link.account_name}, ${link.account_id}; valid until ${link.expires_at}, once)`,
    )
  }
  // The link's address comes from this command's own settings, not from a running server's.
  if (!publicUrlSet)
    console.error(
      `The link points at ${links[0]?.url.split('/console/')[0]} (PUBLIC_URL, else PORT): if the server listens elsewhere, give this command the server's PUBLIC_URL or PORT.`,
    )
}
