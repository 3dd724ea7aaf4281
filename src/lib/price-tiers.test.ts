import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, readConfig } from '../config.ts'

describe('PRICE_TIERS and PRICE_CURRENCY (docs/usage.md#pricing)', () => {
  it('defaults to the spec tiers in EUR', () => {
    const config = readConfig({})
    assert.deepEqual(config.priceTiers, [
      { upTo: 100, unitAmount: 100 },
      { upTo: 1000, unitAmount: 80 },
      { upTo: 10000, unitAmount: 60 },
      { upTo: null, unitAmount: 40 },
    ])
    assert.equal(config.priceCurrency, 'EUR')
  })

  it('reads other tiers and currency, spaces around the parts allowed, a free tier allowed', () => {
    const config = readConfig({ PRICE_TIERS: ' 10:0, 20 : 5 ,inf:1', PRICE_CURRENCY: 'JPY' })
    assert.deepEqual(config.priceTiers, [
      { upTo: 10, unitAmount: 0 },
      { upTo: 20, unitAmount: 5 },
      { upTo: null, unitAmount: 1 },
    ])
    assert.equal(config.priceCurrency, 'JPY')
    assert.deepEqual(readConfig({ PRICE_TIERS: 'inf:25' }).priceTiers, [{ upTo: null, unitAmount: 25 }])
  })

  const refused: Array<[string, string]> = [
    ['PRICE_TIERS', '100:100,1000:80'],
    ['PRICE_TIERS', '100:100,100:80,inf:40'],
    ['PRICE_TIERS', '1000:100,100:80,inf:40'],
    ['PRICE_TIERS', 'inf:40,100:100'],
    ['PRICE_TIERS', '100:-1,inf:40'],
    ['PRICE_TIERS', '100:1.5,inf:40'],
    ['PRICE_TIERS', '-5:10,inf:40'],
    ['PRICE_TIERS', '100,inf:40'],
    ['PRICE_TIERS', '100:1:2,inf:40'],
    ['PRICE_TIERS', '100:10,,inf:40'],
    ['PRICE_TIERS', 'inf:'],
    ['PRICE_CURRENCY', 'eur'],
    ['PRICE_CURRENCY', 'EURO'],
    ['PRICE_CURRENCY', '€'],
  ]
  for (const [variable, value] of refused) {
    it(`stops on ${variable}="${value}" with one line naming it`, () => {
      assert.throws(
        () => readConfig({ [variable]: value }),
        (error) =>
          error instanceof ConfigError &&
          error.variable === variable &&
          error.message.includes(variable) &&
          error.message.split('\n').length === 1,
      )
    })
  }
})
