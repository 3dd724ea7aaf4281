import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { claimJob, completeJob, enqueueJob, failJob, findJob } from './job-store.ts'
import { DATABASE_RETRY_MS, drainJobs, type JobCatalogue } from './worker.ts'

describe('jobs outbox', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  const enqueue = (kind: string, payload: unknown, maxAttempts = 1) =>
    t.deps.db.transaction().execute((tx) => enqueueJob(tx, t.deps, { kind, payload, maxAttempts }))
  const ctx = (catalogue: JobCatalogue) => ({ ...t.deps, catalogue })

  it('a job enqueued in a rolled-back transaction does not exist', async () => {
    let id = ''
    await assert.rejects(
      t.deps.db.transaction().execute(async (tx) => {
        id = await enqueueJob(tx, t.deps, { kind: 'never', payload: {} })
        throw new Error('business change failed')
      }),
    )
    assert.equal(await findJob(t.deps.db, id), undefined)
  })

  it('claims a due job once, completes it, and claims nothing more', async () => {
    const id = await enqueue('once', { a: 1 })
    const job = await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000)
    assert.deepEqual(job, { id, kind: 'once', payload: { a: 1 }, attempt: 1, maxAttempts: 1 })
    assert.equal(await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000), null, 'leased: not claimable')
    assert.equal(await completeJob(t.deps.db, t.clock, job!), true)
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
    assert.equal(await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000), null)
  })

  it('fences a worker whose lease lapsed: its late completion is refused', async () => {
    const id = await enqueue('fenced', {})
    const stale = (await claimJob(t.deps.db, t.deps.engine, t.clock, 1000))!
    t.clock.advance(1001)
    const fresh = (await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000))!
    assert.equal(fresh.id, id)
    assert.equal(fresh.attempt, 2)
    assert.equal(await completeJob(t.deps.db, t.clock, stale), false)
    assert.equal(await failJob(t.deps.db, t.clock, stale, 'late', null), false)
    assert.equal(await completeJob(t.deps.db, t.clock, fresh), true)
  })

  it("retries on the kind's schedule, then marks the job dead", async () => {
    const id = await enqueue('flaky', { n: 1 })
    const attempts: number[] = []
    const catalogue: JobCatalogue = {
      flaky: {
        retrySchedule: [30],
        handle: async (_payload, job) => {
          attempts.push(job.attempt)
          throw new Error(`failure ${job.attempt}`)
        },
      },
    }
    assert.equal(await drainJobs(ctx(catalogue)), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'pending')
    assert.equal(await drainJobs(ctx(catalogue)), 0, 'not due before 30 s')
    t.clock.advance(30_000)
    assert.equal(await drainJobs(ctx(catalogue)), 1)
    const row = await findJob(t.deps.db, id)
    assert.equal(row?.state, 'dead')
    assert.equal(row?.last_error, 'failure 2')
    assert.deepEqual(attempts, [1, 2])
  })

  it('retries a job that met the database away in 5 s, even with no retry left in its schedule', async () => {
    const id = await enqueue('outage', {})
    const attempts: number[] = []
    const lost = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    })
    const catalogue: JobCatalogue = {
      outage: {
        retrySchedule: [],
        handle: async (_payload, job) => {
          attempts.push(job.attempt)
          if (job.attempt === 1) throw lost
        },
      },
    }
    assert.equal(await drainJobs(ctx(catalogue)), 1)
    const row = await findJob(t.deps.db, id)
    assert.equal(row?.state, 'pending', 'not dead: nobody failed')
    assert.equal(row?.run_at, new Date(t.clock.now().getTime() + DATABASE_RETRY_MS).toISOString())
    t.clock.advance(DATABASE_RETRY_MS)
    assert.equal(await drainJobs(ctx(catalogue)), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
    assert.deepEqual(attempts, [1, 2])
  })

  it('marks a job of an unknown kind dead rather than looping on it', async () => {
    const id = await enqueue('unknown-kind', {})
    assert.equal(await drainJobs(ctx({})), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'dead')
  })

  it('runs handlers with their payload and completes them', async () => {
    const seen: unknown[] = []
    const id = await enqueue('ok', { hello: 'world' })
    await drainJobs(ctx({ ok: { retrySchedule: [], handle: async (p) => void seen.push(p) } }))
    assert.deepEqual(seen, [{ hello: 'world' }])
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
  })
})
