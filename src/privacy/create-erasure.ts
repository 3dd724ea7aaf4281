// POST /v1/privacy/erasures — docs/privacy.md#erasure: a data subject's request (GDPR Art. 17).
// Finds now every submission of this environment where the address signs or was a group member,
// keeps the list and an HMAC of the address (never the address), and queues the job that purges
// the ended ones (run-erasure.ts): 202 with the erasure `pending`; GET it for the report.

import { defineRoute } from '../http/define-route.ts'
import { enqueue } from '../jobs/job-store.ts'
import { toIso } from '../lib/clock.ts'
import { hmacSha256Hex } from '../lib/crypto.ts'
import { emailKey } from '../lib/email-address.ts'
import { CreateErasureBody, Erasure, toApiErasure } from './erasure-schemas.ts'
import { insertErasure, submissionsOfAddress } from './erasure-store.ts'
import { erasureJob } from './run-erasure.ts'

export const createErasure = defineRoute({
  operationId: 'createErasure',
  method: 'POST',
  url: '/v1/privacy/erasures',
  summary: "Erase one person's data",
  description:
    'Every submission of this environment where the address signs or was a member of a signer group is purged when it has ended (as `POST /v1/submissions/{id}/purge`), and listed with why not otherwise (`not_ended`, `held`). Answers 202 with the erasure `pending`; `GET /v1/privacy/erasures/{id}` shows the report, final once `completed`. The address is never stored: the erasure keeps a keyed hash of it. Journaled as `erasure.completed`. Idempotency-Key required.',
  tag: 'Privacy',
  idempotent: true,
  consoleRole: 'admin',
  schema: { body: CreateErasureBody, response: { 202: Erasure } },
  errors: [],
  handler: async ({ body, scope, transaction }, deps) =>
    transaction(async (tx) => {
      const key = emailKey(body.email)
      const found = await submissionsOfAddress(tx, scope, key)
      const row = {
        id: deps.ids.next('era'),
        account_id: scope.accountId,
        environment: scope.environment,
        email_hmac: hmacSha256Hex(deps.keys.erasure, key),
        status: 'pending' as const,
        report: JSON.stringify(found.map((submission_id) => ({ submission_id, outcome: 'pending' }))),
        created_at: toIso(deps.clock.now()),
        completed_at: null,
      }
      await insertErasure(tx, row)
      await enqueue(tx, deps, erasureJob, { erasure_id: row.id })
      return toApiErasure(row)
    }),
})
