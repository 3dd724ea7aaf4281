// docs/operations.md#worker-concurrency: WORKER_CONCURRENCY lanes run due jobs side by side, never
// more at once than asked, each job once; one lane runs them one after another; the periodic tasks
// still get their turn during a long burst.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Type } from 'typebox'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { bindJobs, defineJob } from './define-job.ts'
import { enqueue } from './job-store.ts'
import { LANE_BATCH, runWorker } from './worker.ts'

/** `promise`, or a rejection naming `what` once `ms` have passed. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** A job kind that counts who runs at once; `hold` decides when a running job may finish. */
function countingKind(hold: (running: number) => Promise<void>) {
  const seen = { running: 0, most: 0, ran: [] as number[] }
  const kind = defineJob({
    kind: 'test.counting',
    payload: Type.Object({ n: Type.Integer() }),
    retrySchedule: [],
    handle: async ({ n }) => {
      seen.running++
      seen.most = Math.max(seen.most, seen.running)
      try {
        await hold(seen.running)
        seen.ran.push(n)
      } finally {
        seen.running--
      }
    },
  })
  return { kind, seen }
}

describe('worker concurrency', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  async function queue(kind: Parameters<typeof enqueue>[2], count: number): Promise<void> {
    await t.deps.db.transaction().execute(async (tx) => {
      for (let n = 0; n < count; n++) await enqueue(tx, t.deps, kind, { n })
    })
  }

  async function pendingOf(kind: string): Promise<number> {
    const row = await t.deps.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('kind', '=', kind)
      .where('state', '!=', 'done')
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Runs the worker with `concurrency` until `count` jobs ran; the periodic task sees each turn. */
  async function runUntil(
    seen: { ran: number[] },
    catalogue: ReturnType<typeof bindJobs>,
    concurrency: number,
    count: number,
    onTurn: () => Promise<void> = async () => {},
  ): Promise<void> {
    const stop = new AbortController()
    let done: () => void = () => {}
    const all = new Promise<void>((resolve) => {
      done = resolve
    })
    const worker = runWorker({ ...t.deps, catalogue }, stop.signal, {
      pollMs: 5,
      concurrency,
      periodicTasks: [
        {
          name: 'turns',
          everyMs: 0,
          run: async () => {
            await onTurn()
            if (seen.ran.length >= count) done()
          },
        },
      ],
    })
    await withDeadline(all, 30_000, `${count} jobs with ${concurrency} lane(s)`)
    stop.abort()
    await withDeadline(worker, 5_000, 'the worker to stop')
  }

  it('four lanes run four jobs at once, never five, each job once', async () => {
    let open: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    // No job finishes before four run together: one lane alone would wait here forever.
    const { kind, seen } = countingKind(async (running) => {
      if (running >= 4) open()
      await gate
    })
    await queue(kind, 10)
    await runUntil(seen, bindJobs([kind], t.deps), 4, 10)
    assert.equal(seen.most, 4)
    assert.deepEqual(
      [...seen.ran].sort((a, b) => a - b),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    )
    assert.equal(await pendingOf(kind.kind), 0)
  })

  it('one lane runs them one after another', async () => {
    const { kind, seen } = countingKind(() => new Promise((resolve) => setImmediate(resolve)))
    await queue(kind, 6)
    await runUntil(seen, bindJobs([kind], t.deps), 1, 6)
    assert.equal(seen.most, 1)
    assert.equal(seen.ran.length, 6)
    assert.equal(await pendingOf(kind.kind), 0)
  })

  it('the periodic tasks run between rounds of a burst longer than a round', async () => {
    const { kind, seen } = countingKind(async () => {})
    const jobs = LANE_BATCH * 2 * 3
    await queue(kind, jobs)
    const waitingAtTurns: number[] = []
    await runUntil(seen, bindJobs([kind], t.deps), 2, jobs, async () => {
      waitingAtTurns.push(await pendingOf(kind.kind))
    })
    const midBurst = waitingAtTurns.filter((n) => n > 0 && n < jobs)
    assert.ok(midBurst.length >= 2, `turns with jobs still waiting: ${waitingAtTurns.join(', ')}`)
  })
})
