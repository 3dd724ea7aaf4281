// GET /v1/usage (docs/usage.md#get-v1usagemonthyyyy-mm). Signatures are recorded without documents
// where only counting matters; the signing paths that record them are tested in
// signature-ledger.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  recordedSignatures,
  signer,
} from '../../test/signing.ts'
import type { Environment } from '../db/tables.ts'
import { buildOpenApi } from '../http/openapi.ts'
import { getUsage } from './get-usage.ts'

describe('GET /v1/usage', () => {
  let t: TestApp
  let keys: { accountId: string; testKey: string; liveKey: string }
  let other: { accountId: string; testKey: string; liveKey: string }
  before(async () => {
    // The app's clock: 2026-11-22T10:00Z. Small tiers, so that their edges are a few rows away.
    t = await startTestApp({ env: { PRICE_TIERS: '3:100,5:80,inf:40', PRICE_CURRENCY: 'USD' } })
    keys = await t.account('Usage Co')
    other = await t.account('Other Co')
  })
  after(() => t.close())

  const sign = (accountId: string, environment: Environment, at: string, count = 1) =>
    recordedSignatures(t, accountId, environment, at, count)
  const usage = (key: string, month?: string) =>
    t.request(key, { method: 'GET', url: month === undefined ? '/v1/usage' : `/v1/usage?month=${month}` })

  describe('happy', () => {
    it('200 for the current UTC month by default: every day up to today, zeros included', async () => {
      await sign(keys.accountId, 'live', '2026-11-01T00:00:00.000Z')
      await sign(keys.accountId, 'live', '2026-11-03T23:59:59.999Z', 2)
      const res = await usage(keys.liveKey)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.deepEqual(Object.keys(body), [
        'object',
        'environment',
        'month',
        'signatures',
        'billable',
        'currency',
        'tier',
        'amount',
        'days',
      ])
      assert.equal(body.object, 'usage')
      assert.equal(body.environment, 'live')
      assert.equal(body.month, '2026-11')
      assert.equal(body.signatures, 3)
      assert.equal(body.billable, true)
      assert.equal(body.currency, 'USD')
      assert.equal(body.days.length, 22)
      assert.deepEqual(body.days.slice(0, 4), [
        { date: '2026-11-01', signatures: 1 },
        { date: '2026-11-02', signatures: 0 },
        { date: '2026-11-03', signatures: 2 },
        { date: '2026-11-04', signatures: 0 },
      ])
      assert.deepEqual(body.days.at(-1), { date: '2026-11-22', signatures: 0 })
    })

    it('volume tiers at their edges: exactly up_to stays in the tier, one past moves every signature', async () => {
      const account = await t.account('Tiers')
      const month = '2026-09'
      const expect = async (signatures: number, tier: unknown, amount: number) => {
        const body = (await usage(account.liveKey, month)).json()
        assert.equal(body.signatures, signatures)
        assert.deepEqual(body.tier, tier, `${signatures} signatures`)
        assert.equal(body.amount, amount, `${signatures} signatures`)
      }
      await expect(0, { up_to: 3, unit_amount: 100 }, 0)
      await sign(account.accountId, 'live', '2026-09-10T12:00:00.000Z', 3)
      await expect(3, { up_to: 3, unit_amount: 100 }, 300)
      await sign(account.accountId, 'live', '2026-09-30T23:59:59.999Z')
      await expect(4, { up_to: 5, unit_amount: 80 }, 320)
      await sign(account.accountId, 'live', '2026-09-01T00:00:00.000Z')
      await expect(5, { up_to: 5, unit_amount: 80 }, 400)
      await sign(account.accountId, 'live', '2026-09-15T00:00:00.000Z')
      await expect(6, { up_to: null, unit_amount: 40 }, 240)
      const body = (await usage(account.liveKey, month)).json()
      assert.equal(body.days.length, 30, 'a past month: every day')
      assert.equal(
        body.days.reduce((sum: number, d: { signatures: number }) => sum + d.signatures, 0),
        6,
      )
    })

    it('months at year ends: the last instant of December and the first of January fall apart', async () => {
      const account = await t.account('Year end')
      await sign(account.accountId, 'live', '2025-12-31T23:59:59.999Z', 2)
      await sign(account.accountId, 'live', '2026-01-01T00:00:00.000Z', 1)
      const december = (await usage(account.liveKey, '2025-12')).json()
      assert.equal(december.signatures, 2)
      assert.deepEqual(december.days.at(-1), { date: '2025-12-31', signatures: 2 })
      assert.equal(december.days.length, 31)
      const january = (await usage(account.liveKey, '2026-01')).json()
      assert.equal(january.signatures, 1)
      assert.deepEqual(january.days[0], { date: '2026-01-01', signatures: 1 })
    })

    it('test keys see their own signatures with billable false and amount 0', async () => {
      const account = await t.account('Test only')
      await sign(account.accountId, 'test', '2026-11-05T08:00:00.000Z', 4)
      const body = (await usage(account.testKey)).json()
      assert.equal(body.environment, 'test')
      assert.equal(body.signatures, 4)
      assert.equal(body.billable, false)
      assert.deepEqual(body.tier, { up_to: 5, unit_amount: 80 }, 'the tier the volume would pick')
      assert.equal(body.amount, 0)
      assert.equal((await usage(account.liveKey)).json().signatures, 0, 'live sees none of them')
    })

    it('a real signature shows in the month of its move', async () => {
      const account = await t.account('Signer')
      const created = await createSubmission(t, account.liveKey, await everyTypeBody(['first']))
      assert.equal(
        (await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })).statusCode,
        200,
      )
      const body = (await usage(account.liveKey)).json()
      assert.equal(body.signatures, 1)
      assert.deepEqual(body.days.at(-1), { date: '2026-11-22', signatures: 1 })
    })

    it('a month still to come: 200 with 0 signatures and no days', async () => {
      const body = (await usage(keys.liveKey, '2027-01')).json()
      assert.equal(body.signatures, 0)
      assert.deepEqual(body.days, [])
      assert.equal(body.amount, 0)
    })
  })

  describe('errors', () => {
    for (const bad of ['2026-13', '2026-1', '202611', 'november', '2026-11-01', '1969-12']) {
      it(`422 invalid_month for "${bad}", naming the format`, async () => {
        const res = await usage(keys.liveKey, encodeURIComponent(bad))
        assert.equal(res.statusCode, 422, res.body)
        const error = errorOf(res)
        assert.equal(error.code, 'invalid_month')
        assert.match(error.message, /YYYY-MM/)
      })
    }

    it('422 invalid_month for a repeated month, invalid_request for an unknown parameter', async () => {
      const twice = await t.request(keys.liveKey, {
        method: 'GET',
        url: '/v1/usage?month=2026-11&month=2026-10',
      })
      assert.equal(errorOf(twice).code, 'invalid_month')
      const unknown = await t.request(keys.liveKey, { method: 'GET', url: '/v1/usage?year=2026' })
      assert.equal(errorOf(unknown).code, 'invalid_request')
    })

    it('401 missing_api_key without a key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/usage' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'missing_api_key')
    })
  })

  describe('openapi', () => {
    it('describes getUsage with its month parameter, the Usage schema and its example, and invalid_month', () => {
      // biome-ignore lint/suspicious/noExplicitAny: walking the generated document
      const doc = buildOpenApi([getUsage], 'http://127.0.0.1:8080') as any
      const operation = doc.paths['/v1/usage'].get
      assert.equal(operation.operationId, 'getUsage')
      assert.deepEqual(
        operation.parameters.map((p: { name: string; in: string }) => [p.name, p.in]),
        [['month', 'query']],
      )
      assert.equal(
        operation.responses['200'].content['application/json'].schema.$ref,
        '#/components/schemas/Usage',
      )
      const [example] = doc.components.schemas.Usage.examples
      assert.equal(example.amount, example.signatures * example.tier.unit_amount)
      assert.ok(operation.responses['422'].content['application/json'].examples.invalid_month)
    })
  })

  describe('security', () => {
    it("never counts another account's or the other environment's signatures", async () => {
      const mine = (await usage(keys.liveKey, '2026-08')).json().signatures
      await sign(other.accountId, 'live', '2026-08-10T00:00:00.000Z', 7)
      await sign(keys.accountId, 'test', '2026-08-10T00:00:00.000Z', 5)
      assert.equal((await usage(keys.liveKey, '2026-08')).json().signatures, mine)
      assert.equal((await usage(other.liveKey, '2026-08')).json().signatures, 7)
      assert.equal((await usage(other.testKey, '2026-08')).json().signatures, 0)
      assert.equal((await usage(keys.testKey, '2026-08')).json().signatures, 5)
    })
  })
})
