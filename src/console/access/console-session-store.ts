// Console sessions (console contract): an opaque cookie token, stored as its SHA-256 only. A session
// lives 12 hours from its last use (slid at most once a minute) and 7 days at most; ending it, or
// removing its member, ends it at once.

import type { ConsoleSessionsTable, Environment, Executor, MembersTable } from '../../db/tables.ts'
import type { ConsoleScope } from '../../http/caller.ts'
import type { Clock } from '../../lib/clock.ts'
import { toIso } from '../../lib/clock.ts'
import { sha256Hex } from '../../lib/crypto.ts'
import { type IdGenerator, randomBase62 } from '../../lib/ids.ts'

export const SESSION_IDLE_MS = 12 * 3600_000
export const SESSION_MAX_MS = 7 * 86_400_000
/** `last_seen_at` is written at most this often per session. */
export const SESSION_TOUCH_MS = 60_000

/** A token for a cookie or a link: 43 base62 characters, about 256 bits. */
export function newToken(): string {
  return randomBase62(43)
}

export function hashToken(token: string): string {
  return sha256Hex(token)
}

export interface CreatedSession {
  token: string
  session: ConsoleSessionsTable
}

/** A session of the member in the test environment, as signing in makes it. */
export async function insertSession(
  tx: Executor,
  ctx: { clock: Clock; ids: IdGenerator },
  member: Pick<MembersTable, 'id' | 'account_id'>,
): Promise<CreatedSession> {
  const token = newToken()
  const now = ctx.clock.now()
  const session: ConsoleSessionsTable = {
    id: ctx.ids.next('cses'),
    token_hash: hashToken(token),
    member_id: member.id,
    account_id: member.account_id,
    environment: 'test',
    csrf_token: newToken(),
    created_at: toIso(now),
    last_seen_at: toIso(now),
    expires_at: toIso(new Date(now.getTime() + SESSION_MAX_MS)),
    ended_at: null,
  }
  await tx.insertInto('console_sessions').values(session).execute()
  return { token, session }
}

export interface LiveSession {
  session: ConsoleSessionsTable
  member: Pick<MembersTable, 'id' | 'email' | 'role'>
  account: { id: string; name: string }
}

/** When a session stops being usable: 12 hours after its last use, or its absolute expiry. */
export function sessionEndsAt(session: Pick<ConsoleSessionsTable, 'last_seen_at' | 'expires_at'>): Date {
  const idle = new Date(session.last_seen_at).getTime() + SESSION_IDLE_MS
  return new Date(Math.min(idle, new Date(session.expires_at).getTime()))
}

/** The session of a cookie's token while it is usable and its member is still a member; else undefined. */
export async function findLiveSession(
  db: Executor,
  clock: Clock,
  token: string,
): Promise<LiveSession | undefined> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('members as m', (j) =>
      j.onRef('m.id', '=', 's.member_id').onRef('m.account_id', '=', 's.account_id'),
    )
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .selectAll('s')
    .select(['m.email', 'm.role', 'a.name as account_name'])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.ended_at', 'is', null)
    .where('m.removed_at', 'is', null)
    .executeTakeFirst()
  if (!row || sessionEndsAt(row).getTime() <= clock.epochMs()) return undefined
  const { email, role, account_name, ...session } = row
  return {
    session,
    member: { id: session.member_id, email, role },
    account: { id: session.account_id, name: account_name },
  }
}

/** Slides the idle expiry; written at most once a minute per session. */
export async function touchSession(db: Executor, clock: Clock, session: ConsoleSessionsTable): Promise<void> {
  const now = clock.epochMs()
  if (now - new Date(session.last_seen_at).getTime() < SESSION_TOUCH_MS) return
  const at = toIso(new Date(now))
  await db
    .updateTable('console_sessions')
    .set({ last_seen_at: at })
    .where('id', '=', session.id)
    .where('last_seen_at', '<', at)
    .execute()
  session.last_seen_at = at
}

export function toConsoleScope(live: LiveSession): ConsoleScope {
  return {
    accountId: live.session.account_id,
    environment: live.session.environment,
    keyId: live.member.id,
    via: 'console',
    memberId: live.member.id,
    role: live.member.role,
    sessionId: live.session.id,
  }
}

export async function setSessionEnvironment(
  db: Executor,
  scope: ConsoleScope,
  environment: Environment,
): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ environment })
    .where('id', '=', scope.sessionId)
    .where('account_id', '=', scope.accountId)
    .execute()
}

export async function endSession(db: Executor, clock: Clock, scope: ConsoleScope): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ ended_at: toIso(clock.now()) })
    .where('id', '=', scope.sessionId)
    .where('account_id', '=', scope.accountId)
    .where('ended_at', 'is', null)
    .execute()
}

/** The caller's own session (it was admitted, so it is live), for the session routes. */
export async function findOwnSession(db: Executor, scope: ConsoleScope): Promise<LiveSession | undefined> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('members as m', (j) =>
      j.onRef('m.id', '=', 's.member_id').onRef('m.account_id', '=', 's.account_id'),
    )
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .selectAll('s')
    .select(['m.email', 'm.role', 'a.name as account_name'])
    .where('s.id', '=', scope.sessionId)
    .where('s.account_id', '=', scope.accountId)
    .executeTakeFirst()
  if (!row) return undefined
  const { email, role, account_name, ...session } = row
  return {
    session,
    member: { id: session.member_id, email, role },
    account: { id: session.account_id, name: account_name },
  }
}
