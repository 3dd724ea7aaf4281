// A member as the console's API shows it (/console/api/members, docs/console.md).
import { type Static, Type } from 'typebox'
import { MEMBER_ROLES } from '../../accounts/member-store.ts'
import type { MembersTable } from '../../db/tables.ts'
import { Id, StringEnum, Timestamp } from '../../http/common-schemas.ts'

export const Member = Type.Object({
  object: Type.Literal('member'),
  id: Id('mem'),
  email: Type.String(),
  role: StringEnum(MEMBER_ROLES),
  created_at: Timestamp,
  last_sign_in_at: Type.Union([Timestamp, Type.Null()]),
})
export type Member = Static<typeof Member>

export function toApiMember(row: MembersTable): Member {
  return {
    object: 'member',
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.created_at,
    last_sign_in_at: row.last_sign_in_at,
  }
}
