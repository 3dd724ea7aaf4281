// A submission purged as POST /v1/submissions/{id}/purge purges it (docs/privacy.md#purge), for
// tests that hold no API key of its account at hand.
import { purgeSubmission } from '../src/privacy/purge.ts'
import type { TestApp } from './harness.ts'

export async function markPurged(t: TestApp, id: string): Promise<void> {
  const row = await t.deps.db
    .selectFrom('submissions')
    .select(['account_id', 'environment'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  await purgeSubmission(t.deps, { accountId: row.account_id, environment: row.environment }, id, 'request')
}
