import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import type { Scope } from '../db/tables.ts'
import { appendEvent } from './event-store.ts'
import type { EventType } from './event-types.ts'

describe('GET /v1/events', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let scope: Scope
  const SUB_A = `sub_${'A'.repeat(24)}`
  const SUB_B = `sub_${'B'.repeat(24)}`

  const add = (s: Scope, type: EventType, submissionId: string | null, n: number) =>
    t.deps.db.transaction().execute(async (tx) => {
      for (let i = 0; i < n; i++) {
        await appendEvent(tx, t.deps, s, { type, submissionId, data: { n: i } })
        t.clock.advance(1)
      }
    })

  const list = (query: string, key = keys.testKey) =>
    t.request(key, { method: 'GET', url: `/v1/events${query}` })

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    scope = { accountId: keys.accountId, environment: 'test' }
    await add(scope, 'submission.created', SUB_A, 5)
    await add(scope, 'submitter.opened', SUB_B, 3)
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 newest first, 20 by default, in the list envelope', async () => {
      const res = await list('')
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.deepEqual(Object.keys(body).sort(), ['data', 'has_more', 'next_cursor'])
      assert.equal(body.data.length, 8)
      assert.equal(body.has_more, false)
      assert.equal(body.next_cursor, null)
      assert.equal(body.data[0].type, 'submitter.opened')
      assert.equal(body.data[0].submission_id, SUB_B)
      assert.deepEqual(body.data[0].data, { n: 2 })
      assert.match(body.data[0].id, /^evt_[0-9A-Za-z]{24}$/)
      const times = body.data.map((e: { created_at: string }) => e.created_at)
      assert.deepEqual([...times].sort().reverse(), times)
    })

    it('filters by type and by submission_id', async () => {
      const byType = (await list('?type=submission.created')).json()
      assert.equal(byType.data.length, 5)
      assert.ok(byType.data.every((e: { type: string }) => e.type === 'submission.created'))
      const bySubmission = (await list(`?submission_id=${SUB_B}`)).json()
      assert.equal(bySubmission.data.length, 3)
      assert.equal((await list(`?submission_id=sub_${'C'.repeat(24)}`)).json().data.length, 0)
    })

    it('pages with no duplicates or gaps while rows are added, even with equal timestamps', async () => {
      const own = await t.account('paging')
      const s: Scope = { accountId: own.accountId, environment: 'test' }
      // 25 rows sharing one timestamp: the id breaks the tie.
      await t.deps.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 25; i++)
          await appendEvent(tx, t.deps, s, { type: 'submission.sent', data: { i } })
      })
      t.clock.advance(5)
      await add(s, 'submission.viewed', null, 20)
      const before = (await list('?limit=100', own.testKey)).json().data.map((e: { id: string }) => e.id)
      assert.equal(before.length, 45)

      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const res = await list(
          `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          own.testKey,
        )
        assert.equal(res.statusCode, 200)
        const body = res.json()
        seen.push(...body.data.map((e: { id: string }) => e.id))
        cursor = body.next_cursor
        pages++
        await add(s, 'submission.completed', null, 2) // newer rows arrive while paging
      } while (cursor)
      assert.equal(pages, 7)
      assert.deepEqual(seen, before, 'exactly the rows that existed, in order, once each')
    })

    it('has_more and next_cursor are consistent at an exact page boundary', async () => {
      const page = (await list('?type=submission.created&limit=5')).json()
      assert.equal(page.data.length, 5)
      assert.equal(page.has_more, false)
      assert.equal(page.next_cursor, null)
    })
  })

  describe('errors', () => {
    for (const [query, code] of [
      ['?limit=0', 'invalid_pagination'],
      ['?limit=101', 'invalid_pagination'],
      ['?limit=-1', 'invalid_pagination'],
      ['?limit=abc', 'invalid_pagination'],
      ['?limit=1.5', 'invalid_pagination'],
      ['?cursor=garbage', 'invalid_pagination'],
      [`?cursor=${'A'.repeat(2000)}`, 'invalid_pagination'],
      ['?cursor=', 'invalid_pagination'],
      ['?type=submission.exploded', 'invalid_type'],
      ['?type=webhook.test', 'invalid_type'],
      ['?submission_id=sub_123', 'invalid_submission_id'],
      [`?submission_id=tpl_${'a'.repeat(24)}`, 'invalid_submission_id'],
      ['?status=completed', 'invalid_request'],
    ] as const) {
      it(`422 ${code} for ${query.slice(0, 40)}`, async () => {
        const res = await list(query)
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, code)
        assert.equal(errorOf(res).type, 'invalid_request_error')
      })
    }

    it('422 invalid_pagination for an edited cursor', async () => {
      const { next_cursor: cursor } = (await list('?limit=2')).json()
      assert.ok(cursor)
      const middle = Math.floor(cursor.length / 2)
      const edited = cursor.slice(0, middle) + (cursor[middle] === 'A' ? 'B' : 'A') + cursor.slice(middle + 1)
      const res = await list(`?limit=2&cursor=${encodeURIComponent(edited)}`)
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'invalid_pagination')
    })

    it('422 invalid_pagination for a cursor of other filters, another environment or another account', async () => {
      const { next_cursor: cursor } = (await list('?limit=2&type=submission.created')).json()
      assert.ok(cursor)
      const c = encodeURIComponent(cursor)
      const other = await t.account('foreign')
      for (const res of [
        await list(`?limit=2&cursor=${c}`),
        await list(`?limit=2&type=submitter.opened&cursor=${c}`),
        await list(`?limit=2&type=submission.created&cursor=${c}`, keys.liveKey),
        await list(`?limit=2&type=submission.created&cursor=${c}`, other.testKey),
      ]) {
        assert.equal(res.statusCode, 422)
        assert.equal(errorOf(res).code, 'invalid_pagination')
      }
      assert.equal((await list(`?limit=2&type=submission.created&cursor=${c}`)).statusCode, 200)
    })
  })

  describe('security', () => {
    it("never shows another account's or environment's events", async () => {
      const other = await t.account('other')
      await add({ accountId: other.accountId, environment: 'test' }, 'submission.cancelled', SUB_A, 2)
      await add({ accountId: keys.accountId, environment: 'live' }, 'submission.expired', SUB_A, 1)
      const mine = (await list('?limit=100')).json().data
      assert.ok(
        mine.every((e: { type: string }) => !['submission.cancelled', 'submission.expired'].includes(e.type)),
      )
      const theirs = (await list('?limit=100', other.testKey)).json().data
      assert.deepEqual(
        theirs.map((e: { type: string }) => e.type),
        ['submission.cancelled', 'submission.cancelled'],
      )
      const live = (await list('?limit=100', keys.liveKey)).json().data
      assert.deepEqual(
        live.map((e: { type: string }) => e.type),
        ['submission.expired'],
      )
    })
  })
})
