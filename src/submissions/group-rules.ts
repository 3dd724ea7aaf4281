// docs/api.md#signer-groups, the rules of a request naming a group: `email` or `members`, never both
// nor neither; 2 to 10 distinct people (the schema counts them, this compares their addresses by
// their key: case and the spelling of a domain do not make two people); no pre-signed group; and
// what a PATCH replacing the members keeps, adds and removes. Pure.
import type { GroupMembersTable } from '../db/tables.ts'
import { fieldError } from '../errors.ts'
import { storedEmail } from '../lib/email-address.ts'
import type { MemberInput } from './signer-groups.ts'

export interface GroupRequest {
  email?: string
  members?: MemberInput[]
  completed?: boolean
}

/** 422 naming the field when a submitter gives both `email` and `members`, or neither. */
export function checkAddressOrGroup(s: GroupRequest, path: string): void {
  if (s.email !== undefined && s.members !== undefined) {
    throw fieldError(
      'invalid_request',
      `${path}.members`,
      'give either `email` (one signer) or `members` (a signer group), not both.',
    )
  }
  if (s.email === undefined && s.members === undefined) {
    throw fieldError(
      'invalid_request',
      `${path}.email`,
      "is required: the signer's address, or `members` for a signer group (docs/api.md#signer-groups).",
    )
  }
  if (s.members === undefined) return
  if (s.completed) {
    throw fieldError(
      'invalid_request',
      `${path}.completed`,
      'a signer group cannot be pre-signed: one of its members signs for the role.',
    )
  }
  checkDistinctMembers(s.members, `${path}.members`)
}

/** 422 naming the second of two members with one address. */
export function checkDistinctMembers(members: readonly MemberInput[], path: string): void {
  const seen = new Map<string, number>()
  for (const [j, member] of members.entries()) {
    const key = storedEmail(member.email).email_key
    const earlier = seen.get(key)
    if (earlier !== undefined) {
      throw fieldError(
        'invalid_request',
        `${path}[${j}].email`,
        `is the address of ${path}[${earlier}] again (addresses are compared without case and in either spelling of their domain); each member is another person.`,
      )
    }
    seen.set(key, j)
  }
}

export interface MemberReplacement {
  /** Members of the group before and after, with the name the request gives (changed or not). */
  kept: Array<{ member: GroupMembersTable; name: string | null; position: number }>
  /** New people, in the request's order: a new link and signing request each. */
  added: Array<MemberInput & { position: number }>
  /** People no longer in the group: their links end. */
  removed: GroupMembersTable[]
}

/**
 * PATCH /v1/submitters/{id} `members` (docs/api.md#signer-groups): the request is the whole group.
 * A person already in it (same address key) keeps their link, and their name unless the request
 * gives one; every member takes the position the request gives them.
 */
export function replaceMembers(
  current: readonly GroupMembersTable[],
  requested: readonly MemberInput[],
): MemberReplacement {
  const byKey = new Map(current.map((m) => [m.email_key, m]))
  const out: MemberReplacement = { kept: [], added: [], removed: [] }
  const keys = new Set<string>()
  for (const [position, wanted] of requested.entries()) {
    const key = storedEmail(wanted.email).email_key
    keys.add(key)
    const member = byKey.get(key)
    if (member) out.kept.push({ member, name: wanted.name ?? member.name, position })
    else out.added.push({ ...wanted, position })
  }
  out.removed = current.filter((m) => !keys.has(m.email_key))
  return out
}
