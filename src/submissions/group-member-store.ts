// The people of signer groups (docs/api.md#signer-groups), scoped in the WHERE like every store.
// A member found by its signing slug is the exception, as a submitter is: the slug is the credential.
// Status changes are not here: lifecycle/apply-submitter-move.ts writes them with the submitter's.
import { prepared } from '../db/prepared.ts'
import type { Executor, GroupMembersTable, Scope, SubmittersTable, Tx } from '../db/tables.ts'

export async function insertGroupMembers(db: Executor, rows: GroupMembersTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('group_members').values(rows).execute()
}

/** The members of these submitters (found in scope already), by submitter then in their order. */
export async function membersOf(
  db: Executor,
  scope: Scope,
  submitterIds: readonly string[],
): Promise<GroupMembersTable[]> {
  if (submitterIds.length === 0) return []
  return db
    .selectFrom('group_members')
    .selectAll()
    .where('submitter_id', 'in', submitterIds)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('submitter_id')
    .orderBy('position')
    .execute()
}

/** The members of the grouped submitters among `submitters`; none read when there is no group. */
export async function membersOfGroups(
  db: Executor,
  submitters: ReadonlyArray<Pick<SubmittersTable, 'id' | 'grouped' | 'account_id' | 'environment'>>,
): Promise<Map<string, GroupMembersTable[]>> {
  const groups = submitters.filter((s) => s.grouped === 1)
  const out = new Map<string, GroupMembersTable[]>()
  if (groups.length === 0) return out
  const scope = { accountId: groups[0]!.account_id, environment: groups[0]!.environment }
  for (const member of await membersOf(
    db,
    scope,
    groups.map((s) => s.id),
  )) {
    out.set(member.submitter_id, [...(out.get(member.submitter_id) ?? []), member])
  }
  return out
}

// The signer routes read a member on every act (the link, then again under the lock): compiled once.
const selectMemberBySlug = prepared((db, slug: string) =>
  db.selectFrom('group_members').selectAll().where('signing_slug', '=', slug),
)

const selectMemberOfSubmitter = prepared(
  (db, id: string, submitterId: string, accountId: string, environment: string) =>
    db
      .selectFrom('group_members')
      .selectAll()
      .where('id', '=', id)
      .where('submitter_id', '=', submitterId)
      .where('account_id', '=', accountId)
      .where('environment', '=', environment as Scope['environment']),
)

/** A member's credential: a slug unique across accounts. */
export async function findMemberBySlug(db: Executor, slug: string): Promise<GroupMembersTable | undefined> {
  return (await selectMemberBySlug(db, slug))[0]
}

/** For a verified embed token naming a member: that member of that submitter. */
export async function findMemberOfSubmitter(
  db: Executor,
  submitter: Pick<SubmittersTable, 'id' | 'account_id' | 'environment'>,
  memberId: string,
): Promise<GroupMembersTable | undefined> {
  return (
    await selectMemberOfSubmitter(db, memberId, submitter.id, submitter.account_id, submitter.environment)
  )[0]
}

/** The right e-mail code of a member: the time is kept on the member (copied to the submitter when they sign). */
export async function recordMemberVerified(tx: Tx, member: GroupMembersTable, at: string): Promise<void> {
  await tx
    .updateTable('group_members')
    .set({ email_2fa_verified_at: at, updated_at: at })
    .where('id', '=', member.id)
    .where('account_id', '=', member.account_id)
    .where('environment', '=', member.environment)
    .execute()
}

/**
 * PATCH …/members (docs/api.md#signer-groups): the group becomes the request's people. Removed
 * members' rows go, with their e-mail codes and saved progress (their links then name no one); kept
 * members take their new position and name; new members are inserted. Only while every member is
 * still pending: the caller refused a group that signed or declined.
 */
export async function replaceGroupMembers(
  tx: Tx,
  group: SubmittersTable,
  change: {
    removed: readonly GroupMembersTable[]
    kept: ReadonlyArray<{ member: GroupMembersTable; name: string | null; position: number }>
    added: readonly GroupMembersTable[]
  },
  at: string,
): Promise<void> {
  const removed = change.removed.map((m) => m.id)
  if (removed.length > 0) {
    for (const table of ['email_2fa_codes', 'signing_progress'] as const) {
      await tx
        .deleteFrom(table)
        .where('submitter_id', '=', group.id)
        .where('member_id', 'in', removed)
        .where('account_id', '=', group.account_id)
        .where('environment', '=', group.environment)
        .execute()
    }
    await tx
      .deleteFrom('group_members')
      .where('id', 'in', removed)
      .where('submitter_id', '=', group.id)
      .where('account_id', '=', group.account_id)
      .where('environment', '=', group.environment)
      .execute()
  }
  for (const { member, name, position } of change.kept) {
    if (member.name === name && member.position === position) continue
    await tx
      .updateTable('group_members')
      .set({ name, position, updated_at: at })
      .where('id', '=', member.id)
      .where('account_id', '=', group.account_id)
      .where('environment', '=', group.environment)
      .execute()
  }
  await insertGroupMembers(tx, [...change.added])
}
