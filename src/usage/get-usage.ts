// GET /v1/usage — docs/usage.md#get-v1usagemonthyyyy-mm: the signatures of the caller's account and
// environment in one UTC month, the tier their total picks and what they cost (nothing on test
// keys).
import { type Static, Type } from 'typebox'
import { Environment } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { priceOf } from './pricing.ts'
import { signaturesPerDay } from './signature-ledger.ts'
import { usageMonth } from './usage-month.ts'

const GetUsageQuery = Type.Object(
  {
    month: Type.Optional(
      Type.String({
        description:
          'Calendar month, `YYYY-MM` in UTC (default: the current UTC month). Anything else is 422 `invalid_month`. A month still to come answers 0 signatures and no days.',
        examples: ['2026-11'],
      }),
    ),
  },
  { additionalProperties: false },
)

const UsageDay = Type.Object({
  date: Type.String({ format: 'date', description: 'UTC day, `YYYY-MM-DD`', examples: ['2026-11-01'] }),
  signatures: Type.Integer({ minimum: 0, description: 'Signatures made that day', examples: [17] }),
})

export const Usage = Type.Object(
  {
    object: Type.Literal('usage'),
    environment: Environment,
    month: Type.String({ description: 'The month answered, `YYYY-MM`', examples: ['2026-11'] }),
    signatures: Type.Integer({
      minimum: 0,
      description:
        'Submitters who became `signed` or `pre_signed` in the month, each counted once (never again on a replay, retry or re-read; declines, cancels and expiries never count).',
      examples: [1234],
    }),
    billable: Type.Boolean({
      description: 'True on live keys only; test signatures are shown but cost nothing',
    }),
    currency: Type.String({
      description: 'ISO 4217 code of `amount` and `unit_amount` (PRICE_CURRENCY)',
      examples: ['EUR'],
    }),
    tier: Type.Object(
      {
        up_to: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: 'Highest monthly total of this tier; null for the last, unbounded tier',
          examples: [10000],
        }),
        unit_amount: Type.Integer({
          minimum: 0,
          description: 'Price of every signature of the month, in minor units (cents)',
          examples: [60],
        }),
      },
      { description: 'The one volume tier (PRICE_TIERS) the month’s total falls in' },
    ),
    amount: Type.Integer({
      minimum: 0,
      description: '`signatures × tier.unit_amount` in minor units; 0 when not billable',
      examples: [74040],
    }),
    days: Type.Array(UsageDay, {
      description: 'Every day of the month up to today (UTC), oldest first, zeros included',
    }),
  },
  {
    title: 'Usage',
    examples: [
      {
        object: 'usage',
        environment: 'live',
        month: '2026-11',
        signatures: 1234,
        billable: true,
        currency: 'EUR',
        tier: { up_to: 10000, unit_amount: 60 },
        amount: 74040,
        days: [
          { date: '2026-11-01', signatures: 17 },
          { date: '2026-11-02', signatures: 0 },
        ],
      },
    ],
  },
)
export type Usage = Static<typeof Usage>

export const getUsage = defineRoute({
  operationId: 'getUsage',
  method: 'GET',
  url: '/v1/usage',
  summary: 'Signatures and price of a month',
  description:
    'Volume pricing (docs/usage.md#pricing): the month’s total picks one tier of PRICE_TIERS and every signature of the month costs its `unit_amount`. Scoped to the key’s account and environment.',
  tag: 'Usage',
  schema: { querystring: GetUsageQuery, response: { 200: Usage } },
  errors: ['invalid_month'],
  queryErrors: { month: 'invalid_month' },
  handler: async ({ query, scope }, { db, clock, config }) => {
    const month = usageMonth(query.month, clock.now())
    const counted = new Map(
      (await signaturesPerDay(db, scope, month.range)).map((d) => [d.date, d.signatures]),
    )
    const signatures = [...counted.values()].reduce((sum, n) => sum + n, 0)
    const billable = scope.environment === 'live'
    const { tier, amount } = priceOf(config.priceTiers, signatures)
    return {
      object: 'usage' as const,
      environment: scope.environment,
      month: month.month,
      signatures,
      billable,
      currency: config.priceCurrency,
      tier: { up_to: tier.upTo, unit_amount: tier.unitAmount },
      amount: billable ? amount : 0,
      days: month.days.map((date) => ({ date, signatures: counted.get(date) ?? 0 })),
    }
  },
})
