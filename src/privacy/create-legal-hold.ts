// POST /v1/legal_holds — docs/privacy.md#legal-holds: keeps submissions from every purge (a request:
// 409 legal_hold_active; the retention policy and erasures skip them) until released. Each id must
// be a submission of this environment (422 naming `submission_ids`). Journaled `legal_hold.created`
// in the same transaction.
import type { Scope } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { fieldError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { CreateLegalHoldBody, LegalHold, toApiLegalHold } from './legal-hold-schemas.ts'
import { existingSubmissions, insertLegalHold } from './legal-hold-store.ts'

export const createLegalHold = defineRoute({
  operationId: 'createLegalHold',
  method: 'POST',
  url: '/v1/legal_holds',
  summary: 'Place a legal hold',
  description:
    'Keeps the named submissions (1–1000) from every purge until the hold is released: `POST /v1/submissions/{id}/purge` answers 409 `legal_hold_active`, the retention policy and erasure requests skip them. Each id must be a submission of this environment, else 422 naming `submission_ids`. Journaled as `legal_hold.created`.',
  tag: 'Privacy',
  consoleRole: 'admin',
  schema: { body: CreateLegalHoldBody, response: { 201: LegalHold } },
  errors: [],
  handler: async ({ body, scope, transaction }, deps) =>
    transaction(async (tx) => {
      const found = await existingSubmissions(tx, scope, body.submission_ids)
      const missing = body.submission_ids.filter((id) => !found.has(id))
      if (missing.length > 0) {
        throw fieldError(
          'invalid_request',
          'submission_ids',
          `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} ${missing.length === 1 ? 'is no submission' : 'are no submissions'} of this environment`,
        )
      }
      const row = {
        id: deps.ids.next('hold'),
        account_id: scope.accountId,
        environment: scope.environment,
        reason: body.reason,
        created_at: toIso(deps.clock.now()),
        released_at: null,
      }
      await insertLegalHold(tx, row, body.submission_ids)
      const hold = toApiLegalHold(row, body.submission_ids)
      await journal(tx, deps, scope, 'legal_hold.created', hold)
      return hold
    }),
})

/** A hold's event: the account's act, no submission of its own (the ids are in `data.object`). */
export async function journal(
  tx: Parameters<typeof appendEvent>[0],
  deps: Pick<Deps, 'clock' | 'ids'>,
  scope: Scope,
  type: 'legal_hold.created' | 'legal_hold.released',
  hold: ReturnType<typeof toApiLegalHold>,
): Promise<void> {
  await appendEvent(tx, deps, scope, { type, data: { object: hold } })
}
