// docs/privacy.md#purge: a file URL handed out before a purge answers 410 `submission_purged`,
// not 404: the blob is gone because its submission was purged, which the caller should be told.
// The key says whose the file was (`acct/env/submissions/sub_…/…` or, for the documents of a
// template made for one submission, `acct/env/templates/tpl_…/…`).

import type { Executor } from '../db/tables.ts'

const SUBMISSION_KEY = /^([^/]+)\/([^/]+)\/submissions\/(sub_[A-Za-z0-9]+)\//
const TEMPLATE_KEY = /^([^/]+)\/([^/]+)\/templates\/(tpl_[A-Za-z0-9]+)\//

/** Whether the missing blob `key` belonged to a purged submission. */
export async function isPurgedFile(db: Executor, key: string): Promise<boolean> {
  const bySubmission = SUBMISSION_KEY.exec(key)
  const byTemplate = bySubmission ? null : TEMPLATE_KEY.exec(key)
  const match = bySubmission ?? byTemplate
  if (!match) return false
  const [, accountId, environment, id] = match as unknown as [string, string, string, string]
  const row = await db
    .selectFrom('submissions')
    .select('id')
    .where('account_id', '=', accountId)
    .where('environment', '=', environment as 'test' | 'live')
    .where(bySubmission ? 'id' : 'template_id', '=', id)
    .where('purged_at', 'is not', null)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
