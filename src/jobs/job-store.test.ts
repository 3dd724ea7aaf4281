import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Type } from 'typebox'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { toIso } from '../lib/clock.ts'
import { type AnyJobDefinition, bindJobs, declareJob, defineJob } from './define-job.ts'
import { claimJob, completeJob, enqueue, failJob, findJob } from './job-store.ts'
import { DATABASE_RETRY_MS, drainJobs } from './worker.ts'

/** A kind of these tests: any payload, `retrySchedule` as given, a handler that does nothing. */
const testJob = (kind: string, retrySchedule: number[] = []) =>
  declareJob({ kind, payload: Type.Unknown(), retrySchedule })

describe('jobs outbox', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  const queue = (kind: string, payload: unknown, retrySchedule: number[] = []) =>
    t.deps.db.transaction().execute((tx) => enqueue(tx, t.deps, testJob(kind, retrySchedule), payload))
  const ctx = (...jobs: AnyJobDefinition<null>[]) => ({ ...t.deps, catalogue: bindJobs(jobs, null) })

  it('a job enqueued in a rolled-back transaction does not exist', async () => {
    let id = ''
    await assert.rejects(
      t.deps.db.transaction().execute(async (tx) => {
        id = await enqueue(tx, t.deps, testJob('never'), {})
        throw new Error('business change failed')
      }),
    )
    assert.equal(await findJob(t.deps.db, id), undefined)
  })

  it('claims a due job once, completes it, and claims nothing more', async () => {
    const id = await queue('once', { a: 1 })
    const job = await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000)
    assert.deepEqual(job, {
      id,
      kind: 'once',
      payload: { a: 1 },
      attempt: 1,
      maxAttempts: 1,
      leaseMs: 60_000,
    })
    assert.equal(await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000), null, 'leased: not claimable')
    assert.equal(await completeJob(t.deps.db, t.clock, job!), true)
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
    assert.equal(await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000), null)
  })

  it('fences a worker whose lease lapsed: its late completion is refused', async () => {
    const id = await queue('fenced', {})
    const stale = (await claimJob(t.deps.db, t.deps.engine, t.clock, 1000))!
    t.clock.advance(1001)
    const fresh = (await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000))!
    assert.equal(stale.leaseMs, 1000, 'each claim says how long it holds the job')
    assert.equal(fresh.leaseMs, 60_000)
    assert.equal(fresh.id, id)
    assert.equal(fresh.attempt, 2)
    assert.equal(await completeJob(t.deps.db, t.clock, stale), false)
    assert.equal(await failJob(t.deps.db, t.clock, stale, 'late', null), false)
    assert.equal(await completeJob(t.deps.db, t.clock, fresh), true)
  })

  it("retries on the kind's schedule, then marks the job dead", async () => {
    const id = await queue('flaky', { n: 1 }, [30])
    const attempts: number[] = []
    const catalogue = ctx(
      defineJob({
        ...testJob('flaky', [30]),
        handle: async (_payload, job) => {
          attempts.push(job.attempt)
          throw new Error(`failure ${job.attempt}`)
        },
      }),
    )
    assert.equal(await drainJobs(catalogue), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'pending')
    assert.equal(await drainJobs(catalogue), 0, 'not due before 30 s')
    t.clock.advance(30_000)
    assert.equal(await drainJobs(catalogue), 1)
    const row = await findJob(t.deps.db, id)
    assert.equal(row?.state, 'dead')
    assert.equal(row?.last_error, 'failure 2')
    assert.deepEqual(attempts, [1, 2])
  })

  it('retries a job that met the database away in 5 s, even with no retry left in its schedule', async () => {
    const id = await queue('outage', {})
    const attempts: number[] = []
    const lost = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    })
    const catalogue = ctx(
      defineJob({
        ...testJob('outage'),
        handle: async (_payload, job) => {
          attempts.push(job.attempt)
          if (job.attempt === 1) throw lost
        },
      }),
    )
    assert.equal(await drainJobs(catalogue), 1)
    const row = await findJob(t.deps.db, id)
    assert.equal(row?.state, 'pending', 'not dead: nobody failed')
    assert.equal(row?.run_at, new Date(t.clock.now().getTime() + DATABASE_RETRY_MS).toISOString())
    t.clock.advance(DATABASE_RETRY_MS)
    assert.equal(await drainJobs(catalogue), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
    assert.deepEqual(attempts, [1, 2])
  })

  it('marks a job of an unknown kind dead rather than looping on it', async () => {
    const id = await queue('unknown-kind', {})
    assert.equal(await drainJobs(ctx()), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'dead')
  })

  it('runs handlers with their payload and completes them', async () => {
    const seen: unknown[] = []
    const id = await queue('ok', { hello: 'world' })
    await drainJobs(ctx(defineJob({ ...testJob('ok'), handle: async (p) => void seen.push(p) })))
    assert.deepEqual(seen, [{ hello: 'world' }])
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
  })

  it('claims a job queued with runAt only once it is due', async () => {
    const job = testJob('later')
    const runAt = new Date(t.clock.now().getTime() + 3_600_000)
    const id = await t.deps.db.transaction().execute((tx) => enqueue(tx, t.deps, job, {}, { runAt }))
    assert.equal((await findJob(t.deps.db, id))?.run_at, toIso(runAt))
    assert.equal(await drainJobs(ctx(defineJob({ ...job, handle: async () => {} }))), 0)
    t.clock.advance(3_600_000)
    assert.equal(await drainJobs(ctx(defineJob({ ...job, handle: async () => {} }))), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
  })

  it('claims a job whose lease lapsed (its worker died) before the pending ones due', async () => {
    const orphan = await queue('orphan', {})
    assert.equal((await claimJob(t.deps.db, t.deps.engine, t.clock, 1000))?.id, orphan)
    const waiting = await queue('waiting', {})
    t.clock.advance(1001)
    const first = (await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000))!
    const second = (await claimJob(t.deps.db, t.deps.engine, t.clock, 60_000))!
    assert.deepEqual([first.id, first.attempt, second.id], [orphan, 2, waiting])
    for (const job of [first, second]) assert.equal(await completeJob(t.deps.db, t.clock, job), true)
  })
})

describe('job payloads', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  const Letter = declareJob({
    kind: 'letter',
    payload: Type.Object({ to: Type.String(), pages: Type.Optional(Type.Integer()) }),
    retrySchedule: [],
  })

  /** A row written as another release (or a hand) could have written it, past the schema's check. */
  const insertRow = (id: string, payload: string) => {
    const now = toIso(t.clock.now())
    return t.deps.db
      .insertInto('jobs')
      .values({
        id,
        kind: Letter.kind,
        payload,
        state: 'pending',
        attempt: 0,
        max_attempts: 1,
        run_at: now,
        locked_until: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
  }

  it('refuses at enqueue a payload that does not match the kind: a bug, thrown, nothing queued', async () => {
    let id: string | undefined
    await assert.rejects(
      t.deps.db.transaction().execute(async (tx) => {
        id = await enqueue(tx, t.deps, Letter, { to: 42 } as never)
      }),
      { message: 'the payload of a letter job does not match its schema: /to: must be string' },
    )
    assert.equal(id, undefined)
    // Checked as the worker will read it: NaN is null once written as JSON.
    await assert.rejects(
      t.deps.db.transaction().execute((tx) => enqueue(tx, t.deps, Letter, { to: 'ann', pages: Number.NaN })),
      /\/pages: must be integer/,
    )
    assert.equal((await t.deps.db.selectFrom('jobs').select('id').execute()).length, 0)
  })

  it('marks dead, with the reason, a claimed row that does not match its kind, and runs the next job', async () => {
    await insertRow('job_a_wrong', '{"to":42}')
    t.clock.advance(1)
    await insertRow('job_b_unreadable', '{"to":')
    t.clock.advance(1)
    await insertRow('job_c_good', '{"to":"ann@example.eu"}')
    const seen: unknown[] = []
    const catalogue = bindJobs([defineJob({ ...Letter, handle: async (p) => void seen.push(p) })], null)
    assert.equal(await drainJobs({ ...t.deps, catalogue }), 3)
    const row = (id: string) => findJob(t.deps.db, id)
    assert.deepEqual(
      [(await row('job_a_wrong'))?.state, (await row('job_a_wrong'))?.last_error],
      ['dead', 'the payload of a letter job does not match its schema: /to: must be string'],
    )
    assert.deepEqual(
      [(await row('job_b_unreadable'))?.state, (await row('job_b_unreadable'))?.last_error],
      ['dead', 'the payload of a letter job is not JSON'],
    )
    assert.equal((await row('job_c_good'))?.state, 'done')
    assert.deepEqual(seen, [{ to: 'ann@example.eu' }])
    const logged = t.logs.entries().filter((e) => e.msg === 'job payload unreadable: marked dead')
    assert.deepEqual(
      logged.map((e) => e.job_id),
      ['job_a_wrong', 'job_b_unreadable'],
    )
  })
})

describe('job timeouts', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('abandons an attempt past its timeout: failed with the reason, retried on the schedule', async () => {
    const Slow = declareJob({ kind: 'slow', payload: Type.Object({}), retrySchedule: [30], timeoutMs: 50 })
    const attempts: number[] = []
    let release: () => void = () => {}
    const stuck = new Promise<void>((resolve) => {
      release = resolve
    })
    const catalogue = bindJobs(
      [
        defineJob({
          ...Slow,
          handle: async (_payload, job) => {
            attempts.push(job.attempt)
            // The first attempt hangs (a peer that never answers); the second is prompt.
            if (job.attempt === 1) await stuck
          },
        }),
      ],
      null,
    )
    const id = await t.deps.db.transaction().execute((tx) => enqueue(tx, t.deps, Slow, {}))
    assert.equal(await drainJobs({ ...t.deps, catalogue }), 1)
    const failed = await findJob(t.deps.db, id)
    assert.equal(failed?.state, 'pending')
    assert.equal(failed?.last_error, 'slow attempt abandoned after its timeout of 50 ms')
    assert.equal(failed?.run_at, toIso(new Date(t.clock.now().getTime() + 30_000)))
    release()
    t.clock.advance(30_000)
    assert.equal(await drainJobs({ ...t.deps, catalogue }), 1)
    assert.equal((await findJob(t.deps.db, id))?.state, 'done')
    assert.deepEqual(attempts, [1, 2])
  })
})
