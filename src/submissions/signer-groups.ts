// Signer groups (docs/api.md#signer-groups): a submitter whose role any one of 2 to 10 people may
// sign. Here: a member's answer in the API, the rows a new group is stored as, and the submitter as
// a member acts for it — the signer routes, mails and reminders see that view, so the member's own
// address, name and link are used wherever a signer's would be.
import { type Static, Type } from 'typebox'
import type { Executor, GroupMembersTable, Scope, SubmittersTable } from '../db/tables.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import type { Clock } from '../lib/clock.ts'
import { storedEmail } from '../lib/email-address.ts'
import type { IdGenerator } from '../lib/ids.ts'
import { MEMBER_STATUSES } from '../lifecycle/submitter-moves.ts'
import { membersOfGroups } from './group-member-store.ts'
import { embedExpiry, embedUrl, issueEmbedToken, newSigningSlug, signingUrl } from './signing-credentials.ts'

/** One person of a signer group, as every answer gives them (creation, reads, PATCH). */
export const GroupMember = Type.Object(
  {
    id: Id('grm'),
    email: Type.String({ description: 'As written, lower-cased (docs/api.md#e-mail-addresses)' }),
    name: Nullable(
      Type.String({ description: "The member's `name`, else the submitter's; null without either" }),
    ),
    status: StringEnum(MEMBER_STATUSES, {
      description:
        '`pending` until the role is done; then `signed` for the member who signed and `superseded` for the others (their link answers `signed_by_other`); `declined` for a member who declined for the role',
    }),
    signing_url: Type.String({ description: "This member's own signing page" }),
    embed_src: Type.String({
      description:
        "This member's page to embed (a JWT naming the member, valid until the submission expires or 30 days)",
    }),
    signed_at: Nullable({
      ...Timestamp,
      description: 'When this member signed for the role; null otherwise',
    }),
  },
  { title: 'GroupMember' },
)
export type GroupMember = Static<typeof GroupMember>

/** A member as the request gives one. */
export interface MemberInput {
  email: string
  name?: string
}

/**
 * The submitter as `member` acts for it: the member's address, name, link and verified code in
 * place of the group's. `member` null: the submitter itself (no group).
 */
export function actingAs(submitter: SubmittersTable, member: GroupMembersTable | null): SubmittersTable {
  if (!member) return submitter
  return {
    ...submitter,
    email: member.email,
    email_key: member.email_key,
    name: member.name,
    signing_slug: member.signing_slug,
    email_2fa_verified_at: member.email_2fa_verified_at,
  }
}

/**
 * What keys a signer's e-mail code and saved progress beside the submitter: the member of a signer
 * group, '' for a signer who is no group.
 */
export function memberKeyOf(member: Pick<GroupMembersTable, 'id'> | null): string {
  return member?.id ?? ''
}

/** Who of a group acted, in the journal event of a member's act (the audit trail names them). */
export function memberData(member: Pick<GroupMembersTable, 'id' | 'email' | 'name'> | null) {
  return member ? { member: { id: member.id, email: member.email, name: member.name } } : {}
}

/** The rows of a new group's members; a member without a name takes the submitter's `name`. */
export function newMemberRows(
  submitter: Pick<SubmittersTable, 'id' | 'submission_id' | 'account_id' | 'environment' | 'created_at'>,
  members: readonly MemberInput[],
  defaultName: string | null,
  ids: IdGenerator,
  at: string,
  firstPosition = 0,
): GroupMembersTable[] {
  return members.map((m, i) => ({
    id: ids.next('grm'),
    submitter_id: submitter.id,
    submission_id: submitter.submission_id,
    account_id: submitter.account_id,
    environment: submitter.environment,
    position: firstPosition + i,
    ...storedEmail(m.email),
    name: m.name ?? defaultName,
    status: 'pending',
    signing_slug: newSigningSlug(),
    email_2fa_verified_at: null,
    signed_at: null,
    submitter_created_at: submitter.created_at,
    created_at: at,
    updated_at: at,
  }))
}

/** What minting a member's links takes. */
export interface Credentials {
  config: { signingUrl: string }
  keys: { embed: Uint8Array }
  clock: Clock
}

/** The members as the API answers them, each with a fresh embed URL naming them. */
export async function apiMembers(
  deps: Credentials,
  members: readonly GroupMembersTable[],
  submissionExpiresAt: string | null,
): Promise<GroupMember[]> {
  const now = deps.clock.now()
  const expiresAt = embedExpiry(now, submissionExpiresAt)
  return Promise.all(
    members.map(async (m) => ({
      id: m.id,
      email: m.email,
      name: m.name,
      status: m.status,
      signing_url: signingUrl(deps.config.signingUrl, m.signing_slug),
      embed_src: embedUrl(
        deps.config.signingUrl,
        await issueEmbedToken(
          deps.keys.embed,
          { sub: m.submitter_id, sid: m.submission_id, mbr: m.id },
          expiresAt,
          now,
        ),
      ),
      signed_at: m.signed_at,
    })),
  )
}

/**
 * The answered members of every grouped submitter among `submitters` (of one scope), by submitter
 * id; nothing is read when none is a group.
 */
export async function apiMembersOf(
  deps: Credentials,
  db: Executor,
  scope: Scope,
  submitters: ReadonlyArray<Pick<SubmittersTable, 'id' | 'grouped' | 'account_id' | 'environment'>>,
): Promise<Map<string, GroupMember[]>> {
  const out = new Map<string, GroupMember[]>()
  const groups = await membersOfGroups(db, submitters)
  if (groups.size === 0) return out
  const submissionIds = [...new Set([...groups.values()].map((members) => members[0]!.submission_id))]
  const expiries = new Map(
    (
      await db
        .selectFrom('submissions')
        .select(['id', 'expires_at'])
        .where('id', 'in', submissionIds)
        .where('account_id', '=', scope.accountId)
        .where('environment', '=', scope.environment)
        .execute()
    ).map((row) => [row.id, row.expires_at]),
  )
  for (const [submitterId, members] of groups) {
    out.set(submitterId, await apiMembers(deps, members, expiries.get(members[0]!.submission_id) ?? null))
  }
  return out
}
