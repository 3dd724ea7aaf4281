// DELETE /v1/bulk_sends/{id} — docs/api.md#bulk-send: the rows not yet created are cancelled in one
// transaction that first takes the job's lock (as every worker batch does), so a batch under way
// commits its rows before, or finds them cancelled after. The submissions made stay.
import { ApiError, orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { BulkSend, toApiBulkSend } from './bulk-send-schemas.ts'
import { addCounts, cancelPendingRows, endJob, findBulkSend, lockActiveJob } from './bulk-send-store.ts'

export const cancelBulkSend = defineRoute({
  operationId: 'cancelBulkSend',
  method: 'DELETE',
  url: '/v1/bulk_sends/:id',
  summary: 'Cancel a bulk send',
  description:
    'Stops the rows not yet created (they become `cancelled`); the submissions already created stay. A job that has ended is 409 `bulk_send_already_finalized`.',
  tag: 'Bulk sends',
  schema: { params: IdParams('bulk'), response: { 200: BulkSend } },
  errors: ['resource_not_found', 'bulk_send_already_finalized'],
  handler: async ({ params, scope, transaction }, deps) =>
    transaction(async (tx) => {
      const found = orNotFound(await findBulkSend(tx, scope, params.id), 'bulk send')
      const at = toIso(deps.clock.now())
      const job = await lockActiveJob(tx, found.id, at, 'keep')
      if (!job) {
        throw new ApiError(
          'bulk_send_already_finalized',
          `Bulk send ${found.id} has ended (${found.status}); nothing is left to stop.`,
        )
      }
      await addCounts(tx, job.id, { cancelled: await cancelPendingRows(tx, job.id, at) })
      return toApiBulkSend(await endJob(tx, job.id, { status: 'cancelled', at }))
    }),
})
