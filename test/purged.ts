// A submission as a purge leaves it (docs/api.md#the-signing-page), for tests written before the
// purge route: purged_at set, the personal columns emptied, the PDF keys null. A direct UPDATE
// until POST /v1/submissions/{id}/purge lands; the tests that call it then call the route.
import type { TestApp } from './harness.ts'

export async function markPurged(t: TestApp, id: string): Promise<void> {
  const at = t.clock.now().toISOString()
  await t.deps.db
    .updateTable('submissions')
    .set({ purged_at: at, final_pdf_key: null, audit_pdf_key: null, metadata: '{}' })
    .where('id', '=', id)
    .execute()
  await t.deps.db
    .updateTable('submitters')
    .set({ email: '', name: null, values: '{}' })
    .where('submission_id', '=', id)
    .execute()
}
