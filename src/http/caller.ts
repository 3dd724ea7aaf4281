// Who calls a route: what an auth strategy (http/auth.ts) admitted, handed to the handler as its
// scope. accounts/ produces the API key's caller, console/ the session's; every store function takes
// the caller's account and environment into its WHERE.
import type { MemberRole, Scope } from '../db/tables.ts'

/** Who calls: an API key, or a console member through their session cookie (docs/console.md). */
export type AuthenticatedKey = KeyScope | ConsoleScope

export interface KeyScope extends Scope {
  keyId: string
  via?: undefined
}

/** A console session's caller: `keyId` is the member id (rate limit, request logs, access log). */
export interface ConsoleScope extends Scope {
  keyId: string
  via: 'console'
  memberId: string
  role: MemberRole
  /** The session's id (`cses_…`), for the routes that change or end it. */
  sessionId: string
}
