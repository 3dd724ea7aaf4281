// The retention policy applied by the workers' periodic task (docs/privacy.md#retention-policy):
// counted from each submission's end, only the statuses it names, what it purged in /metrics.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { listenForMetrics, scrape, series } from '../../test/metrics.ts'
import { createSubmission, everyTypeBody, submissionRow } from '../../test/signing.ts'
import type { MetricsServer } from '../metrics/metrics-server.ts'
import { applyRetentionTask } from './apply-retention.ts'

const DAY = 24 * 3600 * 1000

describe('retention policy applied', () => {
  let t: TestApp
  let key: string
  let server: MetricsServer
  before(async () => {
    t = await startTestApp({ env: { METRICS_LISTEN: '127.0.0.1:0' } })
    server = await listenForMetrics(t)
    key = (await t.account()).testKey
  })
  after(async () => {
    await server.close()
    await t.close()
  })

  const cancelled = async () => {
    const id = (await createSubmission(t, key, await everyTypeBody(['first']))).id
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${id}` })
    return id
  }
  const expired = async () => {
    const id = (await createSubmission(t, key, await everyTypeBody(['first']))).id
    await t.deps.db
      .updateTable('submissions')
      .set({ status: 'expired', ended_at: t.clock.now().toISOString() })
      .where('id', '=', id)
      .execute()
    return id
  }
  const purgedAt = async (id: string) => (await submissionRow(t, id))!.purged_at
  const run = () => applyRetentionTask.run(t.deps)

  it('purges what ended delete_after_days ago or more, of the statuses named, and nothing without a policy', async () => {
    const old = await cancelled()
    const oldExpired = await expired()
    await run()
    assert.equal(await purgedAt(old), null, 'no policy: kept forever')
    const policy = await t.request(key, {
      method: 'PUT',
      url: '/v1/retention_policy',
      payload: { delete_after_days: 30, applies_to: ['cancelled'] },
    })
    assert.equal(policy.statusCode, 200, policy.body)
    t.clock.advance(30 * DAY - 1000)
    await run()
    assert.equal(await purgedAt(old), null, 'a second short of 30 days')
    t.clock.advance(1000)
    const young = await cancelled()
    await run()
    assert.ok(await purgedAt(old), '30 days after its end')
    assert.equal(await purgedAt(young), null, 'ended just now')
    assert.equal(await purgedAt(oldExpired), null, 'expired is not named by the policy')

    const { samples } = await scrape(server.address)
    assert.equal(samples.get(series('paraph_purges_total', { cause: 'policy' })), 1)
    assert.ok((samples.get(series('paraph_purged_blobs_total')) ?? 0) >= 1, 'its document was deleted')

    await t.request(key, { method: 'PUT', url: '/v1/retention_policy', payload: { delete_after_days: null } })
    t.clock.advance(365 * DAY)
    await run()
    assert.equal(await purgedAt(young), null, 'the policy off again: kept')
  })
})
