import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { startTestApp } from '../../test/harness.ts'
import { periodicTasks } from '../job-catalogue.ts'
import { batchRows } from './request-log-codec.ts'
import { decodeBatch, type RequestRecord } from './request-log-form.ts'

describe('request log retention', () => {
  it("every worker's housekeeping removes rows older than 7 days and keeps the rest", async () => {
    const t = await startTestApp()
    try {
      const { testKey } = await t.account()
      const health = () => t.request(testKey, { method: 'GET', url: '/v1/health' })
      const old = String((await health()).headers['request-id'])
      await t.deps.requestLogs.flush()
      t.clock.advance(7 * 24 * 60 * 60 * 1000 - 5000)
      const recent = String((await health()).headers['request-id'])
      await t.deps.requestLogs.flush()
      t.clock.advance(5001)
      for (const task of periodicTasks(t.deps)) await task.run()
      const left = (await t.deps.db.selectFrom('request_log_batches').selectAll().execute()).flatMap(
        (batch) => decodeBatch(batch).map((record) => record[0]),
      )
      assert.deepEqual(left, [recent])
      assert.ok(!left.includes(old))
      assert.ok(
        t.logs.entries().some((e) => e.msg === 'request logs older than 7 days purged' && e.purged === 1),
      )
    } finally {
      await t.close()
    }
  })
})

describe('REQUEST_LOGS=false', () => {
  it('keeps no request log', async () => {
    const t = await startTestApp({ env: { REQUEST_LOGS: 'false' } })
    try {
      const { testKey } = await t.account()
      assert.equal((await t.request(testKey, { method: 'GET', url: '/v1/health' })).statusCode, 200)
      await t.deps.requestLogs.flush()
      assert.deepEqual(await t.deps.db.selectFrom('request_log_batches').select('id').execute(), [])
    } finally {
      await t.close()
    }
  })
})

describe('reading batches', () => {
  it('pages through many batches of two processes whose times overlap, newest first, each log once', async () => {
    // The batches are made by hand; the list's own calls are not logged (a timed flush would
    // otherwise add them, newest of all, in the middle of the test).
    const t = await startTestApp({ env: { REQUEST_LOGS: 'false' } })
    try {
      const { accountId, testKey } = await t.account()
      const keyId = `key_${'k'.repeat(24)}`
      const startMs = t.clock.epochMs()
      // Two processes (id prefixes), each flushing a batch every 5 requests: 40 batches whose time
      // ranges interleave; several requests share a millisecond. Statuses vary for the filter.
      const made: RequestRecord[] = []
      for (let i = 0; i < 200; i++) {
        const process = i % 2 === 0 ? 'ProcessAAA' : 'ProcessBBB'
        const counter = String(i).padStart(14, '0')
        made.push({
          id: `req_${process}${counter}`,
          scope: { accountId, environment: 'test', keyId },
          atMs: startMs - 60_000 + Math.floor(i / 3) * 7,
          method: 'GET',
          route: '/v1/health',
          url: '/v1/health',
          status: i % 10 === 0 ? 404 : 200,
          error: null,
          idempotencyKey: null,
          replayed: false,
          ms: 1,
          ip: '192.0.2.1',
          userAgent: undefined,
        })
      }
      for (const process of ['ProcessAAA', 'ProcessBBB']) {
        const own = made.filter((r) => r.id.includes(process))
        for (let i = 0; i < own.length; i += 5) {
          await t.deps.db
            .insertInto('request_log_batches')
            .values(batchRows(own.slice(i, i + 5)))
            .execute()
        }
      }
      const expected = [...made].sort((a, b) => b.atMs - a.atMs || (a.id < b.id ? 1 : -1)).map((r) => r.id)
      const all = async (filter: string, limit = 7) => {
        const ids: string[] = []
        let cursor: string | null = null
        do {
          const query = `?limit=${limit}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
          const res = await t.request(testKey, { method: 'GET', url: `/v1/request_logs${query}` })
          assert.equal(res.statusCode, 200, res.body)
          const page = res.json() as { data: Array<{ id: string }>; next_cursor: string | null }
          ids.push(...page.data.map((log) => log.id))
          cursor = page.next_cursor
        } while (cursor)
        return ids
      }
      assert.deepEqual(await all(''), expected)
      const notFound = made.filter((r) => r.status === 404).map((r) => r.id)
      assert.deepEqual(
        await all('&status=404'),
        expected.filter((id) => notFound.includes(id)),
      )
      // One page wider than a read of batches: the read goes on past the first 16 batches.
      assert.deepEqual(await all('', 100), expected)
      assert.deepEqual(
        await all('&status=404', 100),
        expected.filter((id) => notFound.includes(id)),
      )
      // Batches spanning a long time (a write retried after the database refused it): the sixteen
      // read first end newest but also hold old requests, and a batch read later holds requests
      // newer than those old ones, which must still come before them.
      const wide: RequestRecord[][] = Array.from({ length: 16 }, (_, k) => [
        { ...made[0]!, id: `req_ProcessCCC${String(k).padStart(14, '0')}`, atMs: startMs - k },
        {
          ...made[0]!,
          id: `req_ProcessCCC${String(k + 100).padStart(14, '0')}`,
          atMs: startMs - 100_000 - k,
        },
      ])
      const later = Array.from({ length: 4 }, (_, k) => ({
        ...made[0]!,
        id: `req_ProcessDDD${String(k).padStart(14, '0')}`,
        atMs: startMs - 500 - k,
      }))
      for (const batch of [...wide, later]) {
        await t.deps.db.insertInto('request_log_batches').values(batchRows(batch)).execute()
      }
      const twenty = await t.request(testKey, { method: 'GET', url: '/v1/request_logs?limit=20' })
      const newest = (twenty.json() as { data: Array<{ id: string; time: string }> }).data
      assert.deepEqual(
        newest.map((log) => log.id),
        [...wide.map((batch) => batch[0]!.id), ...later.map((r) => r.id)],
      )
      const one = made[137]!.id
      const found = await t.request(testKey, { method: 'GET', url: `/v1/request_logs?request_id=${one}` })
      assert.deepEqual(
        (found.json() as { data: Array<{ id: string }> }).data.map((log) => log.id),
        [one],
      )
    } finally {
      await t.close()
    }
  })
})
