import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { RenderError } from './render-error.ts'
import { RenderSlots, type SlotLimits } from './render-slots.ts'

/** One owner's slots as before issue #20: no reserve, the whole queue for anyone. */
function slotsOf(perOwner: number, queue: number, waitMs: number, more: Partial<SlotLimits> = {}) {
  return new RenderSlots({ perOwner, reserve: 0, queue, queuePerOwner: queue, waitMs, ...more })
}

function refused(reason: 'busy' | 'account_limit', pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof RenderError)
    assert.equal(error.reason, reason)
    assert.equal(error.retryAfterSeconds, 5)
    assert.match(error.message, pattern)
    return true
  }
}
/** The service lacked room: other owners' renders fill it. */
const isBusy = (pattern: RegExp) => refused('busy', pattern)
/** The owner's own renders fill its share (issue #33: a 429, not a 500). */
const isAccountLimit = (pattern: RegExp) => refused('account_limit', pattern)

describe('RenderSlots', () => {
  it('grants `size` slots at once and hands each freed slot to the oldest waiter', async () => {
    const slots = slotsOf(2, 5, 60_000)
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
    const slots = slotsOf(1, 1, 60_000)
    const held = await slots.acquire()
    const queued = slots.acquire()
    await assert.rejects(slots.acquire(), isBusy(/busy \(1 renders running, 1 waiting\)/))
    held()
    ;(await queued)()
  })

  it("refuses a waiter that waited longer than its deadline behind another owner's renders: busy", async () => {
    const slots = slotsOf(1, 1, 1)
    const held = await slots.acquire('A')
    await assert.rejects(slots.acquire('B'), isBusy(/stayed busy for 0\.001 s/))
    held()
    assert.equal(slots.inFlight, 0)
  })

  it('refuses a waiter that waited longer than its deadline behind its own renders: account_limit', async () => {
    const slots = slotsOf(1, 1, 1)
    const held = await slots.acquire('A')
    await assert.rejects(
      slots.acquire('A'),
      isAccountLimit(
        /^This render waited 0\.001 s behind this account's own 1 running renders \(its concurrent-render limit is 1 at once and 1 waiting\)/,
      ),
    )
    held()
    assert.equal(slots.inFlight, 0)
  })

  it('refuses waiters and new callers once closed', async () => {
    const slots = slotsOf(1, 1, 60_000)
    await slots.acquire()
    const queued = slots.acquire()
    slots.close()
    await assert.rejects(queued, /shut down/)
    await assert.rejects(slots.acquire(), /shut down/)
  })

  describe('shared fairly between owners (issue #20)', () => {
    const fair = () => slotsOf(2, 8, 60_000, { reserve: 1, queuePerOwner: 4 })

    it('a flood from one owner: 2 run, 4 wait, the rest refused at once; another owner runs at once', async () => {
      const slots = fair()
      const flood = Array.from({ length: 10 }, () => slots.acquire('acct_A'))
      const outcomes = await Promise.allSettled(
        flood.map((p) => Promise.race([p, Promise.resolve('waiting')])),
      )
      const states = outcomes.map((o) =>
        o.status === 'rejected' ? 'refused' : o.value === 'waiting' ? 'waiting' : 'running',
      )
      assert.deepEqual(states, [
        ...Array(2).fill('running'),
        ...Array(4).fill('waiting'),
        ...Array(4).fill('refused'),
      ])
      for (const refusal of flood.slice(6)) {
        await assert.rejects(
          refusal,
          isAccountLimit(
            /^Too many concurrent HTML renders for this account \(2 running, 4 waiting\): its concurrent-render limit is 2 at once and 4 waiting; retry in a few seconds/,
          ),
        )
      }
      const other = await slots.acquire('acct_B')
      assert.equal(slots.inFlight, 3, 'the reserved slot, which acct_A could not take')
      other()
      slots.close()
      await Promise.allSettled(flood)
    })

    it('a freed slot goes to the owner running the fewest renders, then waiting the fewest, then the oldest', async () => {
      const slots = fair()
      const order: string[] = []
      const track = (owner: string) =>
        slots.acquire(owner).then((release) => {
          order.push(owner)
          return release
        })
      const [a1, a2] = [await slots.acquire('A'), await slots.acquire('A')]
      const b1 = await slots.acquire('B')
      const waiting = [track('A'), track('C'), track('D'), track('C')]
      b1()
      await waiting[2]
      assert.deepEqual(order, ['D'], 'A is at its 2; C and D run none, D waits the fewest')
      a1()
      await waiting[1]
      assert.deepEqual(order, ['D', 'C'], 'A runs 1 and C none')
      a2()
      await waiting[0]
      assert.deepEqual(order, ['D', 'C', 'A'], 'A runs none now, and its waiter is older than C’s second')
      for (const release of await Promise.all(waiting.slice(0, 3))) release()
      ;(await waiting[3]!)()
      assert.equal(slots.inFlight, 0)
    })

    it('refuses at once when the whole queue is full, whoever asks', async () => {
      const slots = slotsOf(1, 2, 60_000, { reserve: 0, queuePerOwner: 1 })
      const held = await slots.acquire('A')
      const queued = [slots.acquire('B'), slots.acquire('C')]
      await assert.rejects(slots.acquire('D'), isBusy(/busy \(1 renders running, 2 waiting\)/))
      held()
      ;(await queued[0]!)()
      ;(await queued[1]!)()
    })
  })
})
