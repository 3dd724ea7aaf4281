import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { RenderSlots } from './render-slots.ts'

function isBusy(pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ApiError)
    assert.equal(error.code, 'html_render_failed')
    assert.equal(error.headers['Retry-After'], '5')
    assert.match(error.message, pattern)
    return true
  }
}

describe('RenderSlots', () => {
  it('grants `size` slots at once and hands each freed slot to the oldest waiter', async () => {
    const slots = new RenderSlots(2, 5, 60_000)
    const order: number[] = []
    const a = await slots.acquire()
    const b = await slots.acquire()
    assert.equal(slots.inFlight, 2)
    const waiting = [3, 4].map((n) =>
      slots.acquire().then((release) => {
        order.push(n)
        return release
      }),
    )
    a()
    a() // a second call gives nothing back twice
    const third = await waiting[0]!
    assert.deepEqual(order, [3])
    assert.equal(slots.inFlight, 2)
    b()
    const fourth = await waiting[1]!
    assert.deepEqual(order, [3, 4])
    third()
    fourth()
    assert.equal(slots.inFlight, 0)
  })

  it('refuses at once beyond the queue, with Retry-After', async () => {
    const slots = new RenderSlots(1, 1, 60_000)
    const held = await slots.acquire()
    const queued = slots.acquire()
    await assert.rejects(slots.acquire(), isBusy(/busy \(1 renders running, 1 waiting\)/))
    held()
    ;(await queued)()
  })

  it('refuses a waiter that waited longer than its deadline', async () => {
    const slots = new RenderSlots(1, 1, 1)
    const held = await slots.acquire()
    await assert.rejects(slots.acquire(), isBusy(/stayed busy for 0\.001 s/))
    held()
    assert.equal(slots.inFlight, 0)
  })

  it('refuses waiters and new callers once closed', async () => {
    const slots = new RenderSlots(1, 1, 60_000)
    await slots.acquire()
    const queued = slots.acquire()
    slots.close()
    await assert.rejects(queued, /shut down/)
    await assert.rejects(slots.acquire(), /shut down/)
  })
})
