// PUT /v1/retention_policy — docs/api.md#retention-policy: replaces the policy of the caller's
// account and environment. The row and the journal event `retention_policy.updated` (the policy as
// `data.object`, no submission) are written in one transaction. No Idempotency-Key: a PUT repeated
// writes the same policy (docs/api.md#idempotency names the POSTs that need one).
import { Type } from 'typebox'
import { appendEvent } from '../events/event-store.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import {
  AppliesTo,
  DeleteAfterDays,
  RetentionPolicy,
  toApiRetentionPolicy,
} from './retention-policy-schemas.ts'
import { ENDED_STATUSES, readRetentionPolicy, writeRetentionPolicy } from './retention-policy-store.ts'

const UpdateRetentionPolicyRequest = Type.Object(
  {
    delete_after_days: DeleteAfterDays,
    applies_to: Type.Optional(AppliesTo),
  },
  { additionalProperties: false, title: 'UpdateRetentionPolicyRequest' },
)

export const updateRetentionPolicy = defineRoute({
  operationId: 'updateRetentionPolicy',
  method: 'PUT',
  url: '/v1/retention_policy',
  summary: 'Set the retention policy',
  description:
    "Replaces the policy of the key's environment: ended submissions whose status is in `applies_to` (default: all four) are purged `delete_after_days` after they end, unless under a legal hold; null keeps them forever. Journals `retention_policy.updated`. No Idempotency-Key.",
  tag: 'Privacy',
  // Console: account settings are an admin's (docs/console.md#members-and-roles); editors read them only.
  consoleRole: 'admin',
  schema: { body: UpdateRetentionPolicyRequest, response: { 200: RetentionPolicy } },
  errors: [],
  handler: ({ body, scope }, deps) =>
    deps.db.transaction().execute(async (tx) => {
      const policy = {
        delete_after_days: body.delete_after_days,
        applies_to: body.applies_to ?? [...ENDED_STATUSES],
      }
      await writeRetentionPolicy(tx, scope, policy, toIso(deps.clock.now()))
      const written = toApiRetentionPolicy(await readRetentionPolicy(tx, scope))
      await appendEvent(tx, deps, scope, { type: 'retention_policy.updated', data: { object: written } })
      return written
    }),
})
