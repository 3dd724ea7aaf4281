import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { startTestApp } from '../../test/harness.ts'
import { housekeeping } from '../job-catalogue.ts'

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
      for (const task of housekeeping(t.deps)) await task.run()
      const left = (await t.deps.db.selectFrom('request_logs').select('id').execute()).map((r) => r.id)
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
      assert.deepEqual(await t.deps.db.selectFrom('request_logs').select('id').execute(), [])
    } finally {
      await t.close()
    }
  })
})
