// Console sessions for tests: a member of an account and a signed-in session (as POST
// /console/sign-in/:token makes them), and requests made with its cookie and CSRF token.
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { insertMember } from '../../src/accounts/member-store.ts'
import { insertSession } from '../../src/console/access/console-session-store.ts'
import type { MemberRole } from '../../src/db/tables.ts'
import type { TestApp } from '../harness.ts'

export interface ConsoleClient {
  memberId: string
  sessionId: string
  cookie: string
  csrfToken: string
  /** app.inject with the session cookie and, unless `csrf: false`, the X-CSRF-Token header. */
  request(options: InjectOptions, settings?: { csrf?: boolean }): Promise<LightMyRequestResponse>
}

export function consoleClient(
  t: TestApp,
  session: { memberId: string; sessionId: string; token: string; csrfToken: string },
): ConsoleClient {
  const cookie = `paraph_console=${session.token}`
  return {
    ...session,
    cookie,
    request(options, { csrf = true } = {}) {
      return t.app.inject({
        ...options,
        headers: { cookie, ...(csrf ? { 'x-csrf-token': session.csrfToken } : {}), ...options.headers },
      })
    },
  }
}

/** A new member of the account (admin unless told) with a live session. */
export async function signedInMember(
  t: TestApp,
  accountId: string,
  { role = 'admin', email }: { role?: MemberRole; email?: string } = {},
): Promise<ConsoleClient> {
  const member = await insertMember(t.deps.db, t.deps, {
    accountId,
    email: email ?? `${t.deps.ids.next('mem').slice(4).toLowerCase()}@example.eu`,
    role,
  })
  const { token, session } = await insertSession(t.deps.db, t.deps, member)
  return consoleClient(t, {
    memberId: member.id,
    sessionId: session.id,
    token,
    csrfToken: session.csrf_token,
  })
}
