// The signing requests sent again from the console (migration 0014): counted for the limits,
// scoped like every store function.

import type { Executor, Scope, Tx } from '../../db/tables.ts'
import type { ConsoleScope } from '../../http/caller.ts'

/** When the signer's request was sent again since `since` (ISO), oldest first. */
export async function resendTimes(db: Executor, scope: Scope, submitterId: string, since: string) {
  const rows = await db
    .selectFrom('signing_request_resends')
    .select('created_at')
    .where('submitter_id', '=', submitterId)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute()
  return rows.map((r) => r.created_at)
}

export async function recordResend(
  tx: Tx,
  scope: ConsoleScope,
  resend: { submitterId: string; submissionId: string; at: string },
): Promise<void> {
  await tx
    .insertInto('signing_request_resends')
    .values({
      submitter_id: resend.submitterId,
      account_id: scope.accountId,
      environment: scope.environment,
      submission_id: resend.submissionId,
      member_id: scope.memberId,
      created_at: resend.at,
    })
    .execute()
}
