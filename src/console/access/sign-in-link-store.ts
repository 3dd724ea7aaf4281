// Console sign-in links (docs/console.md): stored by the SHA-256 of their token, valid 15 minutes,
// used once; and the requests for them, counted for their limits (5 per address and 30 per client
// address in 15 minutes) in the database, so every process sees the same counts.
import type { Executor, Tx } from '../../db/tables.ts'
import { ApiError } from '../../errors.ts'
import type { Clock } from '../../lib/clock.ts'
import { toIso } from '../../lib/clock.ts'
import { sha256Hex } from '../../lib/crypto.ts'
import { hashToken, newToken } from './console-session-store.ts'

export const LINK_TTL_MS = 15 * 60_000
export const REQUEST_WINDOW_MS = 15 * 60_000
export const REQUESTS_PER_ADDRESS = 5
export const REQUESTS_PER_IP = 30

export async function insertSignInLink(
  tx: Executor,
  clock: Clock,
  member: { id: string; account_id: string },
  ip: string,
): Promise<string> {
  const token = newToken()
  const now = clock.epochMs()
  await tx
    .insertInto('console_sign_in_links')
    .values({
      token_hash: hashToken(token),
      member_id: member.id,
      account_id: member.account_id,
      created_at: toIso(new Date(now)),
      expires_at: toIso(new Date(now + LINK_TTL_MS)),
      used_at: null,
      ip,
    })
    .execute()
  return token
}

export type LinkState = 'usable' | 'spent' | 'unknown'

/** A link and its account's name; `spent` when expired, used, or its member was removed since. */
export async function findSignInLink(db: Executor, clock: Clock, token: string) {
  const row = await db
    .selectFrom('console_sign_in_links as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .innerJoin('members as m', (j) =>
      j.onRef('m.id', '=', 'l.member_id').onRef('m.account_id', '=', 'l.account_id'),
    )
    .select([
      'l.token_hash',
      'l.member_id',
      'l.account_id',
      'l.expires_at',
      'l.used_at',
      'm.removed_at',
      'a.name as account_name',
    ])
    .where('l.token_hash', '=', hashToken(token))
    .executeTakeFirst()
  if (!row) return { state: 'unknown' as const }
  const spent =
    row.used_at !== null || row.removed_at !== null || new Date(row.expires_at).getTime() <= clock.epochMs()
  return { state: spent ? ('spent' as const) : ('usable' as const), link: row }
}

/** Marks the link used; false when another request used it first or it expired meanwhile. */
export async function consumeSignInLink(tx: Tx, clock: Clock, tokenHash: string): Promise<boolean> {
  const now = toIso(clock.now())
  const result = await tx
    .updateTable('console_sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Oldest of the window's requests matching, and how many there are. */
async function windowOf(tx: Tx, column: 'email_hash' | 'ip', value: string, since: string) {
  const row = await tx
    .selectFrom('console_sign_in_requests')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where(column, '=', value)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow()
  return { count: Number(row.n), oldest: row.oldest as string | null }
}

/**
 * Counts one request for sign-in links, or refuses it (429 rate_limit_exceeded with Retry-After)
 * past 5 per address or 30 per client address in 15 minutes. A refused request counts for nothing.
 */
export async function countSignInRequest(tx: Tx, clock: Clock, email: string, ip: string): Promise<void> {
  const now = clock.epochMs()
  const since = toIso(new Date(now - REQUEST_WINDOW_MS))
  await tx.deleteFrom('console_sign_in_requests').where('created_at', '<=', since).execute()
  const emailHash = sha256Hex(email)
  for (const [window, limit, what] of [
    [await windowOf(tx, 'email_hash', emailHash, since), REQUESTS_PER_ADDRESS, 'this address'],
    [await windowOf(tx, 'ip', ip, since), REQUESTS_PER_IP, 'this client address'],
  ] as const) {
    if (window.count >= limit) {
      const retry = Math.max(
        1,
        Math.ceil((new Date(window.oldest!).getTime() + REQUEST_WINDOW_MS - now) / 1000),
      )
      throw new ApiError(
        'rate_limit_exceeded',
        `At most ${limit} sign-in requests for ${what} in 15 minutes; retry in ${retry} s.`,
        { 'retry-after': String(retry) },
      )
    }
  }
  await tx
    .insertInto('console_sign_in_requests')
    .values({ email_hash: emailHash, ip, created_at: toIso(new Date(now)) })
    .execute()
}
