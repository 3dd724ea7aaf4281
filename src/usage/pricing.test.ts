import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parsePriceTiers } from '../lib/price-tiers.ts'
import { priceOf, tierFor } from './pricing.ts'

const TIERS = parsePriceTiers('100:100,1000:80,10000:60,inf:40')

describe('volume pricing', () => {
  it('the total picks one tier: exactly up_to stays in it, one past moves to the next', () => {
    assert.deepEqual(tierFor(TIERS, 0), { upTo: 100, unitAmount: 100 })
    assert.deepEqual(tierFor(TIERS, 100), { upTo: 100, unitAmount: 100 })
    assert.deepEqual(tierFor(TIERS, 101), { upTo: 1000, unitAmount: 80 })
    assert.deepEqual(tierFor(TIERS, 10000), { upTo: 10000, unitAmount: 60 })
    assert.deepEqual(tierFor(TIERS, 10001), { upTo: null, unitAmount: 40 })
  })

  it('every signature of the month costs the unit amount of that tier', () => {
    assert.equal(priceOf(TIERS, 100).amount, 10000)
    assert.equal(priceOf(TIERS, 101).amount, 8080)
    assert.equal(priceOf(TIERS, 1234).amount, 74040)
    assert.equal(priceOf(TIERS, 1_000_000).amount, 40_000_000)
  })
})
