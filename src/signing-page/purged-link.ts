// docs/api.md#the-signing-page: the link of a purged submission still names its signer (the row
// keeps its slug), but nothing behind it may be shown: every signer route answers 410
// `submission_purged` before reading anything else, and the page itself a screen that says only why.
import type { Executor, SubmittersTable } from '../db/tables.ts'
import { ApiError } from '../errors.ts'

export function purgedError(): ApiError {
  return new ApiError(
    'submission_purged',
    'This document is no longer available: it was deleted by its sender under their data retention policy.',
  )
}

/** Throws 410 `submission_purged` when the signer's submission was purged. */
export async function refuseIfPurged(
  db: Executor,
  submitter: Pick<SubmittersTable, 'submission_id' | 'account_id' | 'environment'>,
): Promise<void> {
  const row = await db
    .selectFrom('submissions')
    .select('purged_at')
    .where('id', '=', submitter.submission_id)
    .where('account_id', '=', submitter.account_id)
    .where('environment', '=', submitter.environment)
    .executeTakeFirst()
  if (row?.purged_at) throw purgedError()
}
