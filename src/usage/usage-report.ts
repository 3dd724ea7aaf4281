// The operator's view of a month (docs/usage.md#npx-paraph-usage---month-yyyy-mm---json----csv,
// `paraph usage`): one row per account with its live signatures, the tier their total picks and the
// amount, as JSON or as RFC 4180 CSV.
import type { Config } from '../config.ts'
import type { Executor } from '../db/tables.ts'
import { priceOf } from './pricing.ts'
import { signaturesPerAccount } from './signature-ledger.ts'
import type { UsageMonth } from './usage-month.ts'

export interface AccountUsage {
  month: string
  account_id: string
  name: string
  live_signatures: number
  tier: { up_to: number | null; unit_amount: number }
  amount: number
  currency: string
}

/** Every account, by name then id, with its live signatures of the month (0 included). */
export async function usageReport(
  db: Executor,
  config: Pick<Config, 'priceTiers' | 'priceCurrency'>,
  month: UsageMonth,
): Promise<AccountUsage[]> {
  const counts = await signaturesPerAccount(db, 'live', month.range)
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .orderBy('name')
    .orderBy('id')
    .execute()
  return accounts.map((account) => {
    const signatures = counts.get(account.id) ?? 0
    const { tier, amount } = priceOf(config.priceTiers, signatures)
    return {
      month: month.month,
      account_id: account.id,
      name: account.name,
      live_signatures: signatures,
      tier: { up_to: tier.upTo, unit_amount: tier.unitAmount },
      amount,
      currency: config.priceCurrency,
    }
  })
}

const CSV_HEADER = [
  'month',
  'account_id',
  'name',
  'live_signatures',
  'tier_up_to',
  'unit_amount',
  'amount',
  'currency',
]

/** RFC 4180: a field with a comma, a double quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string | number): string {
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** RFC 4180 CSV with a header row, CRLF after every record; the unbounded tier is written `inf`. */
export function toCsv(rows: readonly AccountUsage[]): string {
  const records = rows.map((r) => [
    r.month,
    r.account_id,
    r.name,
    r.live_signatures,
    r.tier.up_to ?? 'inf',
    r.tier.unit_amount,
    r.amount,
    r.currency,
  ])
  return [CSV_HEADER, ...records].map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('')
}

/** Aligned columns for a terminal; amounts in minor units, as everywhere. */
export function toTable(rows: readonly AccountUsage[]): string {
  if (rows.length === 0) return 'No account.\n'
  const lines = rows.map((r) => [
    r.account_id,
    r.name.replace(/\s+/g, ' '),
    String(r.live_signatures),
    r.tier.up_to === null ? 'inf' : String(r.tier.up_to),
    String(r.tier.unit_amount),
    String(r.amount),
    r.currency,
  ])
  const header = ['ACCOUNT', 'NAME', 'LIVE SIGNATURES', 'TIER UP TO', 'UNIT AMOUNT', 'AMOUNT', 'CURRENCY']
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  return `${[header, ...lines]
    .map((l) =>
      l
        .map((f, i) => f.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`
}
