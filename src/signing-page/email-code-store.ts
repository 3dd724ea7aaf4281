// The e-mail codes of signers (one live code per submitter, and per member of a signer group) and
// the verification it leaves on the submitter (or the member), scoped in the WHERE like every
// store. The code itself is never stored: only its HMAC.
import type { Email2faCodesTable, Executor, GroupMembersTable, SubmittersTable, Tx } from '../db/tables.ts'
import { recordMemberVerified } from '../submissions/group-member-store.ts'
import { memberKeyOf } from '../submissions/signer-groups.ts'

type Owner = Pick<SubmittersTable, 'id' | 'account_id' | 'environment'>

export async function findEmailCode(db: Executor, submitter: Owner, memberId: string) {
  return db
    .selectFrom('email_2fa_codes')
    .selectAll()
    .where('submitter_id', '=', submitter.id)
    .where('member_id', '=', memberId)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .executeTakeFirst()
}

/** A new code replaces the previous one whole: its tries, its use and its address start afresh. */
export async function saveEmailCode(tx: Tx, row: Email2faCodesTable): Promise<void> {
  const { submitter_id: _, member_id: _m, account_id: __, environment: ___, ...fresh } = row
  await tx
    .insertInto('email_2fa_codes')
    .values(row)
    .onConflict((oc) => oc.columns(['submitter_id', 'member_id']).doUpdateSet(fresh))
    .execute()
}

export async function recordWrongTry(tx: Tx, submitter: Owner, memberId: string): Promise<number> {
  const row = await tx
    .updateTable('email_2fa_codes')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
    .where('submitter_id', '=', submitter.id)
    .where('member_id', '=', memberId)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .returning('wrong_tries')
    .executeTakeFirstOrThrow()
  return Number(row.wrong_tries)
}

/**
 * The right code: used up, and the time kept for the audit trail — on the submitter, or on the
 * member (copied to the submitter when that member signs).
 */
export async function useEmailCode(
  tx: Tx,
  submitter: Owner,
  member: GroupMembersTable | null,
  at: string,
): Promise<void> {
  await tx
    .updateTable('email_2fa_codes')
    .set({ used_at: at })
    .where('submitter_id', '=', submitter.id)
    .where('member_id', '=', memberKeyOf(member))
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .execute()
  if (member) {
    await recordMemberVerified(tx, member, at)
    return
  }
  await tx
    .updateTable('submitters')
    .set({ email_2fa_verified_at: at })
    .where('id', '=', submitter.id)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .execute()
}
