// The signing_progress table (docs/api.md#saving-progress): a signer's values saved before they
// sign, read and written by that signer only, with the signer's scope in every WHERE. Here rather
// than in signing-page/ because the lifecycle deletes a submission's rows in the transaction that
// ends it, and lifecycle/ may import documents/, never signing-page/.
import type { Executor, SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import { decodeProgress, type ProgressValues } from './signing-progress.ts'

type Owner = Pick<SubmittersTable, 'id' | 'account_id' | 'environment'>

/** The group member whose progress it is (docs/api.md#signer-groups); '' for a signer who is no group. */
export type MemberKey = string

export interface SavedProgress {
  values: ProgressValues
  updated_at: string
}

export async function findProgress(
  db: Executor,
  submitter: Owner,
  memberId: MemberKey,
): Promise<SavedProgress | undefined> {
  const row = await db
    .selectFrom('signing_progress')
    .select(['progress', 'updated_at'])
    .where('submitter_id', '=', submitter.id)
    .where('member_id', '=', memberId)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .executeTakeFirst()
  return row && { values: decodeProgress(row.progress), updated_at: row.updated_at }
}

/** The progress as encoded (signing-progress.ts), replacing what was saved; none left deletes the row. */
export async function saveProgress(
  tx: Tx,
  submitter: Owner & Pick<SubmittersTable, 'submission_id'>,
  memberId: MemberKey,
  progress: { encoded: string; empty: boolean; at: string },
): Promise<void> {
  if (progress.empty) {
    await tx
      .deleteFrom('signing_progress')
      .where('submitter_id', '=', submitter.id)
      .where('member_id', '=', memberId)
      .where('account_id', '=', submitter.account_id)
      .where('environment', '=', submitter.environment)
      .execute()
    return
  }
  await tx
    .insertInto('signing_progress')
    .values({
      submitter_id: submitter.id,
      member_id: memberId,
      account_id: submitter.account_id,
      environment: submitter.environment,
      submission_id: submitter.submission_id,
      progress: progress.encoded,
      updated_at: progress.at,
    })
    .onConflict((oc) =>
      oc
        .columns(['submitter_id', 'member_id'])
        .doUpdateSet({ progress: progress.encoded, updated_at: progress.at }),
    )
    .execute()
}

/**
 * A signer signed or declined: what they had saved goes, in the same transaction — for a signer
 * group, what every member saved (the role is done).
 */
export async function deleteProgress(tx: Tx, submitter: Owner): Promise<void> {
  await tx
    .deleteFrom('signing_progress')
    .where('submitter_id', '=', submitter.id)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .execute()
}

/** The submission ended (completed, declined, expired, cancelled): every signer's progress goes with it. */
export async function deleteSubmissionProgress(
  tx: Tx,
  submission: Pick<SubmissionsTable, 'id' | 'account_id' | 'environment'>,
): Promise<void> {
  await tx
    .deleteFrom('signing_progress')
    .where('submission_id', '=', submission.id)
    .where('account_id', '=', submission.account_id)
    .where('environment', '=', submission.environment)
    .execute()
}
