// GET and PUT /v1/retention_policy (docs/api.md#retention-policy): the default, a write read back,
// every refusal, the scope, the journal event and the console's admin role.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { signedInMember } from '../../test/console/console-client.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

const DEFAULT = {
  object: 'retention_policy',
  delete_after_days: null,
  applies_to: ['completed', 'declined', 'expired', 'cancelled'],
  updated_at: null,
}

describe('GET and PUT /v1/retention_policy', () => {
  let t: TestApp
  let a: Keys
  let b: Keys
  before(async () => {
    t = await startTestApp()
    a = await t.account('Acme')
    b = await t.account('Other')
  })
  after(() => t.close())

  const get = (key: string) => t.request(key, { method: 'GET', url: '/v1/retention_policy' })
  const put = (key: string, payload: unknown) =>
    t.request(key, { method: 'PUT', url: '/v1/retention_policy', payload: payload as object })

  describe('happy', () => {
    it('200 the default when none was written: kept forever, every ended status, updated_at null', async () => {
      const res = await get(a.testKey)
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), DEFAULT)
    })

    it('200 PUT answers the policy and GET reads it back, statuses in their fixed order', async () => {
      t.clock.advance(1000)
      const res = await put(a.testKey, { delete_after_days: 90, applies_to: ['declined', 'completed'] })
      assert.equal(res.statusCode, 200, res.body)
      const expected = {
        object: 'retention_policy',
        delete_after_days: 90,
        applies_to: ['completed', 'declined'],
        updated_at: t.clock.now().toISOString(),
      }
      assert.deepEqual(res.json(), expected)
      assert.deepEqual((await get(a.testKey)).json(), expected)
    })

    it('200 applies_to defaults to all four; null days keeps forever again; bounds 1 and 3650 pass', async () => {
      for (const days of [1, 3650, null]) {
        const res = await put(a.testKey, { delete_after_days: days })
        assert.equal(res.statusCode, 200, res.body)
        assert.equal(res.json().delete_after_days, days)
        assert.deepEqual(res.json().applies_to, DEFAULT.applies_to)
      }
      assert.equal((await get(a.testKey)).json().delete_after_days, null)
      assert.notEqual((await get(a.testKey)).json().updated_at, null, 'written, though it keeps forever')
    })

    it('journals retention_policy.updated with the policy as data.object and no submission', async () => {
      t.clock.advance(1000)
      const written = (await put(a.testKey, { delete_after_days: 30, applies_to: ['expired'] })).json()
      const res = await t.request(a.testKey, {
        method: 'GET',
        url: '/v1/events?type=retention_policy.updated&limit=1',
      })
      assert.equal(res.statusCode, 200, res.body)
      const [event] = res.json().data
      assert.equal(event.type, 'retention_policy.updated')
      assert.equal(event.submission_id, null)
      assert.equal(event.submitter_id, null)
      assert.equal(event.created_at, written.updated_at)
      assert.deepEqual(event.data, { object: written })
    })

    it('needs no Idempotency-Key, and the same PUT twice leaves the same policy', async () => {
      const body = { delete_after_days: 45, applies_to: ['cancelled'] }
      const first = await put(a.testKey, body)
      const second = await put(a.testKey, body)
      assert.equal(first.statusCode, 200)
      assert.equal(second.statusCode, 200)
      const { updated_at: _first, ...firstPolicy } = first.json() as Record<string, unknown>
      const { updated_at: _second, ...secondPolicy } = second.json() as Record<string, unknown>
      assert.deepEqual(secondPolicy, firstPolicy)
    })
  })

  describe('errors', () => {
    const refused: Array<[string, unknown, string, RegExp]> = [
      ['0 days', { delete_after_days: 0 }, 'delete_after_days', />= 1/],
      ['3651 days', { delete_after_days: 3651 }, 'delete_after_days', /<= 3650/],
      ['1.5 days', { delete_after_days: 1.5 }, 'delete_after_days', /integer or null/],
      ['"30" as a string', { delete_after_days: '30' }, 'delete_after_days', /integer or null/],
      ['no delete_after_days', { applies_to: ['completed'] }, 'delete_after_days', /required/],
      ['an empty applies_to', { delete_after_days: 30, applies_to: [] }, 'applies_to', /at least 1/],
      [
        'a status twice',
        { delete_after_days: 30, applies_to: ['completed', 'completed'] },
        'applies_to',
        /duplicate/,
      ],
      [
        'a status not ended',
        { delete_after_days: 30, applies_to: ['completed', 'pending'] },
        'applies_to',
        /one of/,
      ],
      ['an unknown key', { delete_after_days: 30, keep: true }, 'keep', /keep/],
    ]
    for (const [what, body, param, message] of refused) {
      it(`422 invalid_request naming ${param} for ${what}; the policy is unchanged`, async () => {
        const before = (await get(b.testKey)).json()
        const res = await put(b.testKey, body)
        assert.equal(res.statusCode, 422, res.body)
        const error = errorOf(res)
        assert.equal(error.code, 'invalid_request')
        assert.match(error.param ?? '', new RegExp(`^${param}`), error.message)
        assert.match(error.message, message)
        assert.deepEqual((await get(b.testKey)).json(), before)
      })
    }

    it('401 missing_api_key without a key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/retention_policy' })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'missing_api_key')
    })
  })

  describe('scoping', () => {
    it("another account and the other environment see their own default, and journal nothing of A's", async () => {
      const c = await t.account('Third')
      await put(c.testKey, { delete_after_days: 7 })
      assert.equal((await get(c.testKey)).json().delete_after_days, 7)
      assert.deepEqual((await get(c.liveKey)).json(), DEFAULT)
      const d = await t.account('Fourth')
      assert.deepEqual((await get(d.testKey)).json(), DEFAULT)
      const events = await t.request(d.testKey, { method: 'GET', url: '/v1/events' })
      assert.deepEqual(events.json().data, [])
      await put(c.liveKey, { delete_after_days: 9 })
      assert.equal((await get(c.testKey)).json().delete_after_days, 7)
    })
  })

  describe('console', () => {
    it('403 console_role_forbidden for an editor writing; an editor reads, an admin writes', async () => {
      const c = await t.account('Consoled')
      const editor = await signedInMember(t, c.accountId, { role: 'editor' })
      const refused = await editor.request({
        method: 'PUT',
        url: '/v1/retention_policy',
        payload: { delete_after_days: 30 },
      })
      assert.equal(refused.statusCode, 403)
      assert.equal(errorOf(refused).code, 'console_role_forbidden')
      const read = await editor.request({ method: 'GET', url: '/v1/retention_policy' })
      assert.equal(read.statusCode, 200)
      assert.equal(read.json().delete_after_days, null)
      const admin = await signedInMember(t, c.accountId)
      const written = await admin.request({
        method: 'PUT',
        url: '/v1/retention_policy',
        payload: { delete_after_days: 30 },
      })
      assert.equal(written.statusCode, 200, written.body)
      assert.equal(written.json().delete_after_days, 30)
    })
  })
})
