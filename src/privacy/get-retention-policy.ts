// GET /v1/retention_policy — docs/api.md#retention-policy: the policy of the caller's account and
// environment; without one written, the default (keep forever, all four ended statuses).
import { defineRoute } from '../http/define-route.ts'
import { RetentionPolicy, toApiRetentionPolicy } from './retention-policy-schemas.ts'
import { readRetentionPolicy } from './retention-policy-store.ts'

export const getRetentionPolicy = defineRoute({
  operationId: 'getRetentionPolicy',
  method: 'GET',
  url: '/v1/retention_policy',
  summary: 'Get the retention policy',
  description:
    "How long the key's environment keeps ended submissions before purging them. Without a policy written: `delete_after_days` null (kept forever), every ended status, `updated_at` null.",
  tag: 'Privacy',
  schema: { response: { 200: RetentionPolicy } },
  errors: [],
  handler: async ({ scope }, { db }) => toApiRetentionPolicy(await readRetentionPolicy(db, scope)),
})
