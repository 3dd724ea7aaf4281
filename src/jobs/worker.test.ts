import assert from 'node:assert/strict'
import { getEventListeners } from 'node:events'
import { after, before, describe, it } from 'node:test'
import { fromPdfBody, post } from '../../test/documents.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { JobBell } from './job-bell.ts'
import { runWorker } from './worker.ts'

/** `promise`, or a rejection naming `what` once `ms` have passed. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

describe('worker loop', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('keeps at most one abort listener over many idle polls, and stops promptly on abort', async () => {
    const stop = new AbortController()
    const polls = 200
    let count = 0
    let listenersSeen = 0
    let reached: () => void = () => {}
    const enough = new Promise<void>((resolve) => {
      reached = resolve
    })
    // everyMs 0: the task runs on every turn of the loop, so it counts the idle polls.
    const counter = {
      name: 'counter',
      everyMs: 0,
      run: async () => {
        listenersSeen = Math.max(listenersSeen, getEventListeners(stop.signal, 'abort').length)
        if (++count === polls) reached()
      },
    }
    const worker = runWorker({ ...t.deps, catalogue: new Map() }, stop.signal, {
      pollMs: 1,
      periodicTasks: [counter],
    })
    await withDeadline(enough, 30_000, `${polls} idle polls`)
    const listeners = getEventListeners(stop.signal, 'abort').length
    stop.abort()
    await withDeadline(worker, 2_000, 'the worker to stop after abort')
    // Node warns (MaxListenersExceededWarning) past 10 listeners on one signal.
    assert.ok(listeners <= 1, `${listeners} abort listeners after ${count} polls`)
    assert.ok(listenersSeen <= 1, `up to ${listenersSeen} abort listeners during the polls`)
  })

  it('stops during a long idle wait as soon as the signal aborts', async () => {
    const stop = new AbortController()
    let idle: () => void = () => {}
    const firstPoll = new Promise<void>((resolve) => {
      idle = resolve
    })
    const worker = runWorker({ ...t.deps, catalogue: new Map() }, stop.signal, {
      pollMs: 60_000,
      periodicTasks: [{ name: 'idle', everyMs: 0, run: async () => idle() }],
    })
    await withDeadline(firstPoll, 10_000, 'the first poll')
    stop.abort()
    await withDeadline(worker, 2_000, 'the worker to stop during its 60 s wait')
  })

  it('ends a long idle wait at a ring of its bell, and the app rings it after a write request', async () => {
    const stop = new AbortController()
    const bell = new JobBell()
    let turns = 0
    let turned: () => void = () => {}
    const nextTurn = () =>
      new Promise<void>((resolve) => {
        turned = resolve
      })
    let turn = nextTurn()
    const worker = runWorker({ ...t.deps, catalogue: new Map(), jobBell: bell }, stop.signal, {
      pollMs: 60_000,
      periodicTasks: [
        {
          name: 'turns',
          everyMs: 0,
          run: async () => {
            turns++
            turned()
          },
        },
      ],
    })
    await withDeadline(turn, 10_000, 'the first poll')
    turn = nextTurn()
    bell.ring()
    await withDeadline(turn, 2_000, 'a turn after the ring, within its 60 s wait')
    assert.equal(turns, 2)
    stop.abort()
    await withDeadline(worker, 2_000, 'the worker to stop')

    // The app's own bell: a refused POST does not ring it, a successful one (after commit) does.
    const key = (await t.account()).testKey
    let rang = false
    const rung = t.deps.jobBell.wait(60_000, new AbortController().signal).then(() => {
      rang = true
    })
    const refused = await post(t, key, '/v1/submissions/from_pdf', {})
    assert.equal(refused.statusCode, 422)
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(rang, false, 'rung by a refused request')
    const created = await post(t, key, '/v1/submissions/from_pdf', await fromPdfBody())
    assert.equal(created.statusCode, 201, created.body)
    await withDeadline(rung, 2_000, 'a ring from the app after a creation')
  })
})
