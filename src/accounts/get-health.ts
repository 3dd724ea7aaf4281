// GET /v1/health — docs/api.md#probes: validates the key and returns its environment.
import { Type } from 'typebox'
import { Environment, Id } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'

export const Health = Type.Object(
  {
    object: Type.Literal('health'),
    status: Type.Literal('ok'),
    environment: Environment,
    livemode: Type.Boolean({ description: 'true for a live key' }),
    account_id: Id('acct'),
  },
  { title: 'Health' },
)

export const getHealth = defineRoute({
  operationId: 'getHealth',
  method: 'GET',
  url: '/v1/health',
  summary: 'Check an API key',
  description: 'Validates the key and returns its environment and account. Counts against the rate limit.',
  tag: 'Health',
  schema: { response: { 200: Health } },
  errors: [],
  handler: ({ scope }) => ({
    object: 'health' as const,
    status: 'ok' as const,
    environment: scope.environment,
    livemode: scope.environment === 'live',
    account_id: scope.accountId,
  }),
})
