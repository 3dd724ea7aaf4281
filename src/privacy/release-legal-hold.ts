// DELETE /v1/legal_holds/{id} — docs/privacy.md#legal-holds: releases a hold (its submissions may be
// purged again, by request or policy, unless another hold names them); journaled
// `legal_hold.released` in the same transaction. A released hold stays listed; releasing it again
// is 409 `legal_hold_already_released`.
import { ApiError, orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { journal } from './create-legal-hold.ts'
import { LegalHold, toApiLegalHold } from './legal-hold-schemas.ts'
import { findLegalHold, heldSubmissions, releaseLegalHold as release } from './legal-hold-store.ts'

export const releaseLegalHold = defineRoute({
  operationId: 'releaseLegalHold',
  method: 'DELETE',
  url: '/v1/legal_holds/:id',
  summary: 'Release a legal hold',
  description:
    'Its submissions may be purged again (by request, the retention policy or an erasure) unless another hold names them. The hold stays listed, `status: released`. Journaled as `legal_hold.released`. Released already: 409 `legal_hold_already_released`.',
  tag: 'Privacy',
  consoleRole: 'admin',
  schema: { params: IdParams('hold'), response: { 200: LegalHold } },
  errors: ['resource_not_found', 'legal_hold_already_released'],
  handler: async ({ params, scope, transaction }, deps) =>
    transaction(async (tx) => {
      const found = orNotFound(await findLegalHold(tx, scope, params.id), `legal hold ${params.id}`)
      const released = await release(tx, found, toIso(deps.clock.now()))
      if (!released) {
        throw new ApiError(
          'legal_hold_already_released',
          `Legal hold ${found.id} was released on ${found.released_at}.`,
        )
      }
      const hold = toApiLegalHold(released, (await heldSubmissions(tx, [released.id])).get(released.id) ?? [])
      await journal(tx, deps, scope, 'legal_hold.released', hold)
      return hold
    }),
})
