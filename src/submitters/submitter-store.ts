// Writes to a submitter that are not status moves (those are lifecycle/apply-submitter-move.ts's),
// scoped in the WHERE and guarded by the statuses that allow them.
import type { Scope, SubmittersTable, Tx } from '../db/tables.ts'
import type { ContactChange } from './submitter-changes.ts'

/** PATCH /v1/submitters/{id}: the new contact columns; undefined if the submitter finished meanwhile. */
export async function updateSubmitterContact(
  tx: Tx,
  scope: Scope,
  id: string,
  set: ContactChange['set'],
  at: string,
): Promise<SubmittersTable | undefined> {
  return tx
    .updateTable('submitters')
    .set({ ...set, updated_at: at })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('status', 'in', ['pending', 'opened'])
    .returningAll()
    .executeTakeFirst()
}
