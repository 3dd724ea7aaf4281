// The people of an account who sign in to its console: accounts create the first (the
// owner), the console the others. Every query takes the account into its WHERE; removed members keep
// their row (removed_at) and count for nothing.
import { type Engine, lockForUpdate } from '../db/dialect.ts'
import type { Executor, MemberRole, MembersTable, Tx } from '../db/tables.ts'
import { ApiError } from '../errors.ts'
import type { Clock } from '../lib/clock.ts'
import { toIso } from '../lib/clock.ts'
import { emailKey, storedEmail } from '../lib/email-address.ts'
import type { IdGenerator } from '../lib/ids.ts'

export const MEMBER_ROLES = ['admin', 'editor'] as const

// Addresses are found by their comparison key (docs/api.md#e-mail-addresses): lower-cased (RFC 5321
// allows case in the local part; nobody relies on it), NFC, the domain in its ASCII form.

const active = (db: Executor, accountId: string) =>
  db.selectFrom('members').selectAll().where('account_id', '=', accountId).where('removed_at', 'is', null)

export async function listMembers(db: Executor, accountId: string): Promise<MembersTable[]> {
  return active(db, accountId).orderBy('created_at').orderBy('id').execute()
}

export async function findMember(db: Executor, accountId: string, id: string) {
  return active(db, accountId).where('id', '=', id).executeTakeFirst()
}

export async function findMemberByEmail(db: Executor, accountId: string, email: string) {
  return active(db, accountId).where('email_key', '=', emailKey(email)).executeTakeFirst()
}

/** 409 member_already_exists when the address is already an active member of the account. */
export async function insertMember(
  tx: Executor,
  ctx: { clock: Clock; ids: IdGenerator },
  input: { accountId: string; email: string; role: MemberRole },
): Promise<MembersTable> {
  const stored = storedEmail(input.email.trim())
  if (await findMemberByEmail(tx, input.accountId, stored.email_key)) {
    throw new ApiError('member_already_exists', `${stored.email} is already a member of this account.`)
  }
  const row: MembersTable = {
    id: ctx.ids.next('mem'),
    account_id: input.accountId,
    ...stored,
    role: input.role,
    created_at: toIso(ctx.clock.now()),
    last_sign_in_at: null,
    removed_at: null,
  }
  await tx.insertInto('members').values(row).execute()
  return row
}

/** Active memberships of an address in every account, with the account's name (sign-in links). */
export async function membershipsOf(db: Executor, email: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.id', 'm.account_id', 'm.email', 'a.name as account_name'])
    .where('m.email_key', '=', emailKey(email))
    .where('m.removed_at', 'is', null)
    .orderBy('a.name')
    .orderBy('m.account_id')
    .execute()
}

/**
 * Refuses a change that would leave the account without an admin. Reads the admins inside the
 * caller's transaction; on PostgreSQL the rows are locked so two admins removing each other at once
 * cannot both pass.
 */
async function keepAnAdmin(tx: Tx, engine: Engine, leaving: MembersTable): Promise<void> {
  if (leaving.role !== 'admin') return
  const admins = await lockForUpdate(
    engine,
    active(tx, leaving.account_id).where('role', '=', 'admin'),
  ).execute()
  if (admins.filter((a) => a.id !== leaving.id).length === 0) {
    throw new ApiError('last_admin', 'An account keeps at least one admin: make another member admin first.')
  }
}

export async function setMemberRole(
  tx: Tx,
  engine: Engine,
  member: MembersTable,
  role: MemberRole,
): Promise<MembersTable> {
  if (member.role === role) return member
  if (role !== 'admin') await keepAnAdmin(tx, engine, member)
  await tx
    .updateTable('members')
    .set({ role })
    .where('account_id', '=', member.account_id)
    .where('id', '=', member.id)
    .execute()
  return { ...member, role }
}

/** Removes the member and ends their sessions at once. */
export async function removeMember(
  tx: Tx,
  ctx: { engine: Engine; clock: Clock },
  member: MembersTable,
): Promise<void> {
  await keepAnAdmin(tx, ctx.engine, member)
  const at = toIso(ctx.clock.now())
  await tx
    .updateTable('members')
    .set({ removed_at: at })
    .where('account_id', '=', member.account_id)
    .where('id', '=', member.id)
    .execute()
  await tx
    .updateTable('console_sessions')
    .set({ ended_at: at })
    .where('account_id', '=', member.account_id)
    .where('member_id', '=', member.id)
    .where('ended_at', 'is', null)
    .execute()
}

/** The address of each of these members of the account, removed ones too (the request logs name who called). */
export async function memberEmailsOf(db: Executor, accountId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  return db
    .selectFrom('members')
    .select(['id', 'email'])
    .where('account_id', '=', accountId)
    .where('id', 'in', [...ids])
    .execute()
}
