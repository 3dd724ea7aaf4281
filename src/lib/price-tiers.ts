// The volume price list as the operator writes it (docs/usage.md#pricing): PRICE_TIERS and
// PRICE_CURRENCY, parsed once at start by config.ts, which names the variable in its one-line error.
// Here, below config.ts, so the config reads them without importing usage/, which prices with them.

export interface PriceTier {
  /** The highest monthly total this tier prices; null for the last, unbounded (`inf`) tier. */
  upTo: number | null
  /** Price of every signature of the month, in minor units of the currency (cents). */
  unitAmount: number
}

export const DEFAULT_PRICE_TIERS = '100:100,1000:80,10000:60,inf:40'

const WHOLE = /^\d{1,15}$/

/**
 * `UP_TO:UNIT_AMOUNT` pairs separated by commas, `up_to` strictly ascending, the last `inf`, every
 * number an integer ≥ 0. Throws a sentence saying what is wrong (the caller names the variable).
 */
export function parsePriceTiers(raw: string): PriceTier[] {
  const usage = `must be UP_TO:UNIT_AMOUNT pairs separated by commas, whole numbers with UP_TO ascending and the last one inf, e.g. "${DEFAULT_PRICE_TIERS}" (got "${raw}")`
  const tiers: PriceTier[] = []
  const parts = raw.split(',').map((p) => p.trim())
  for (const [index, part] of parts.entries()) {
    const [upTo, unitAmount, extra] = part.split(':').map((p) => p.trim())
    const last = index === parts.length - 1
    const upToValid = last ? upTo === 'inf' : upTo !== undefined && WHOLE.test(upTo)
    if (extra !== undefined || !upToValid || unitAmount === undefined || !WHOLE.test(unitAmount)) {
      throw new Error(`${usage}: "${part}" is not a valid tier`)
    }
    const bound = last ? null : Number(upTo)
    const previous = tiers.at(-1)?.upTo
    if (bound !== null && previous !== undefined && previous !== null && bound <= previous) {
      throw new Error(`${usage}: ${bound} does not come after ${previous}`)
    }
    tiers.push({ upTo: bound, unitAmount: Number(unitAmount) })
  }
  return tiers
}

/** ISO 4217 alphabetic code: three capital letters. */
export function parseCurrency(raw: string): string {
  if (!/^[A-Z]{3}$/.test(raw)) {
    throw new Error(`must be an ISO 4217 currency code of three capital letters, e.g. EUR (got "${raw}")`)
  }
  return raw
}
