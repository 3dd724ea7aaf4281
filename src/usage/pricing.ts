// Volume pricing (docs/usage.md#pricing): the tier a month's total picks. PRICE_TIERS is read once at
// start by config.ts (lib/price-tiers.ts). Pure: no clock, no database.
import type { PriceTier } from '../lib/price-tiers.ts'

/** The one tier a month's total falls in: the first whose `upTo` it does not exceed. */
export function tierFor(tiers: readonly PriceTier[], signatures: number): PriceTier {
  const tier = tiers.find((t) => t.upTo === null || signatures <= t.upTo)
  if (!tier) throw new Error('PRICE_TIERS has no unbounded last tier')
  return tier
}

/** Volume pricing: every signature of the month costs the unit amount of the tier the total picks. */
export function priceOf(
  tiers: readonly PriceTier[],
  signatures: number,
): { tier: PriceTier; amount: number } {
  const tier = tierFor(tiers, signatures)
  return { tier, amount: tier.unitAmount * signatures }
}
