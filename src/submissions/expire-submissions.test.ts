import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  signer,
  submissionRow,
} from '../../test/signing.ts'
import { jobCatalogue, periodicTasks } from '../job-catalogue.ts'
import { runWorker } from '../jobs/worker.ts'
import { expireDueSubmissions } from './expire-submissions.ts'

const MINUTE = 60_000

describe('expiry of submissions (docs/api.md#expiry)', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const expiring = async (roles = ['first'], minutes = 1) =>
    createSubmission(
      t,
      key,
      await everyTypeBody(roles, {
        expires_at: new Date(t.clock.epochMs() + minutes * MINUTE).toISOString(),
      }),
    )

  it('the worker expires a submission once expires_at has passed, with one submission.expired event', async () => {
    const created = await expiring()
    const stop = new AbortController()
    const worker = runWorker({ ...t.deps, catalogue: jobCatalogue(t.deps) }, stop.signal, {
      pollMs: 5,
      periodicTasks: periodicTasks(t.deps),
    })
    try {
      t.clock.advance(MINUTE + 1)
      const deadline = Date.now() + 5000
      while ((await submissionRow(t, created.id)).status !== 'expired') {
        assert.ok(Date.now() < deadline, 'expired within 5 seconds')
        await new Promise((resolve) => setImmediate(resolve))
      }
    } finally {
      stop.abort()
      await worker
    }
    const expired = (await eventsOf(t, created.id)).filter((e) => e.type === 'submission.expired')
    assert.equal(expired.length, 1)
    const read = await t.request(key, { method: 'GET', url: `/v1/submissions/${created.id}` })
    assert.equal(read.json().status, 'expired')
  })

  it('several workers sweeping at once expire each submission exactly once', async () => {
    const batch = await Promise.all([expiring(), expiring(), expiring()])
    t.clock.advance(MINUTE + 1)
    const moved = await Promise.all([
      expireDueSubmissions(t.deps),
      expireDueSubmissions(t.deps),
      expireDueSubmissions(t.deps),
    ])
    assert.equal(
      moved.reduce((a, b) => a + b, 0),
      3,
    )
    for (const created of batch) {
      assert.equal((await eventsOf(t, created.id)).filter((e) => e.type === 'submission.expired').length, 1)
    }
  })

  it('leaves alone what is not due, already final, or fully signed (its final PDF is being made)', async () => {
    const later = await expiring(['first'], 60)
    const cancelled = await expiring()
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
    const signed = await expiring()
    assert.equal((await signer(t, signed.submitters[0]!, 'sign', { values: FIRST_VALUES })).statusCode, 200)
    t.clock.advance(MINUTE + 1)
    await expireDueSubmissions(t.deps)
    assert.equal((await submissionRow(t, later.id)).status, 'sent')
    assert.equal((await submissionRow(t, cancelled.id)).status, 'cancelled')
    assert.notEqual((await submissionRow(t, signed.id)).status, 'expired')
  })
})
