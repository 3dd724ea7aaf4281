// Shapes of the console's session API (/console/api/session, docs/console.md), one schema per shape.
import { type Static, Type } from 'typebox'
import { MEMBER_ROLES } from '../../accounts/member-store.ts'
import { Id, StringEnum, Timestamp } from '../../http/common-schemas.ts'
import { type LiveSession, sessionEndsAt } from './console-session-store.ts'

export const EnvironmentName = StringEnum(['test', 'live'] as const)

export const ConsoleSession = Type.Object({
  object: Type.Literal('console_session'),
  member: Type.Object({ id: Id('mem'), email: Type.String(), role: StringEnum(MEMBER_ROLES) }),
  account: Type.Object({ id: Id('acct'), name: Type.String() }),
  environment: EnvironmentName,
  /** Sent back as X-CSRF-Token on every write. */
  csrf_token: Type.String(),
  /** When the session ends unless used again (12 h idle), at most its absolute expiry (7 days). */
  expires_at: Timestamp,
})
export type ConsoleSession = Static<typeof ConsoleSession>

export function toApiSession(live: LiveSession): ConsoleSession {
  return {
    object: 'console_session',
    member: { id: live.member.id, email: live.member.email, role: live.member.role },
    account: { id: live.account.id, name: live.account.name },
    environment: live.session.environment,
    csrf_token: live.session.csrf_token,
    expires_at: sessionEndsAt(live.session).toISOString(),
  }
}

export const SignedOut = Type.Object({
  object: Type.Literal('console_session'),
  signed_out: Type.Literal(true),
})
