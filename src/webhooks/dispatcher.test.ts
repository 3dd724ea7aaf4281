// The dispatcher: bounded concurrency that keeps a dead endpoint from delaying the others, leases
// and attempt fences across crashes and restarts, several dispatchers at once, the loop's wake-up
// and its clean shutdown.
import assert from 'node:assert/strict'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { LogCapture } from '../../test/harness.ts'
import { attemptsOf, deliveries, type HookApp, startHookApp } from '../../test/webhooks.ts'
import { createDeps } from '../deps.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { postSigned } from './deliver-once.ts'
import { claimDelivery, dueDeliveries, settleDelivery } from './delivery-store.ts'
import { WebhookDispatcher } from './dispatcher.ts'

const TIMEOUT_MS = 1500

describe('webhook dispatcher', () => {
  let h: HookApp
  let receiver: WebhookReceiver

  before(async () => {
    h = await startHookApp({ webhookTimeoutMs: TIMEOUT_MS })
  })
  after(() => h.close())
  beforeEach(async () => {
    receiver = await WebhookReceiver.start()
  })
  afterEach(() => receiver.close())

  const publish = () => drainJobs({ ...h.t.deps, catalogue: jobCatalogue(h.t.deps) })
  /** A fresh account with one endpoint on `url`; returns its key and endpoint id. */
  async function fresh(url: string) {
    const account = await h.t.account()
    const endpoint = await h.endpoint(url, ['submission.created'], account.testKey)
    return { key: account.testKey, endpointId: endpoint.id }
  }
  const pendingOf = async (endpointId: string) =>
    (await deliveries(h.t)).filter((d) => d.endpoint_id === endpointId)

  describe('concurrency', () => {
    it('a dead endpoint holds two slots while another endpoint gets all its deliveries', async () => {
      const dead = await WebhookReceiver.start()
      dead.otherwise = answers.hang()
      try {
        const account = await h.t.account()
        const deadEndpoint = await h.endpoint(dead.url('/dead'), ['submission.created'], account.testKey)
        await h.endpoint(receiver.url('/live'), ['submission.created'], account.testKey)
        for (let i = 0; i < 5; i++) await h.submission(account.testKey)
        await publish()
        const stop = new AbortController()
        const dispatcher = new WebhookDispatcher(h.t.deps, { concurrency: 4, perEndpoint: 2 })
        const started = performance.now()
        const running = dispatcher.run(stop.signal)
        await receiver.waitFor(5, TIMEOUT_MS)
        const waited = performance.now() - started
        assert.ok(waited < TIMEOUT_MS, `the live endpoint waited ${waited} ms for the dead one`)
        assert.equal(dead.received.length, 2, 'at most two attempts in flight to one endpoint')
        stop.abort()
        await running
        assert.equal(dispatcher.inFlight, 0, 'shutdown waits for the attempts in flight')
        // Its three deliveries left would only fail against the closed receiver in later tests.
        await h.t.request(account.testKey, {
          method: 'DELETE',
          url: `/v1/webhook_endpoints/${deadEndpoint.id}`,
        })
      } finally {
        await dead.close()
      }
    })

    it('two dispatchers at once send each delivery exactly once', async () => {
      const account = await h.t.account()
      for (let i = 0; i < 8; i++)
        await h.endpoint(receiver.url(`/${i}`), ['submission.created'], account.testKey)
      await h.submission(account.testKey)
      await publish()
      const other = await createDeps(h.t.config, { clock: h.t.clock, logDestination: new LogCapture() })
      try {
        await Promise.all([new WebhookDispatcher(h.t.deps).drain(), new WebhookDispatcher(other).drain()])
        assert.deepEqual(receiver.received.map((r) => r.path).sort(), [
          '/0',
          '/1',
          '/2',
          '/3',
          '/4',
          '/5',
          '/6',
          '/7',
        ])
      } finally {
        await other.close()
      }
    })
  })

  describe('claims made ahead', () => {
    /** An endpoint whose receiver never answers, with `n` deliveries due, and a dispatcher running on it. */
    async function stuck(n: number) {
      receiver.otherwise = answers.hang()
      const { key, endpointId } = await fresh(receiver.url())
      for (let i = 0; i < n; i++) await h.submission(key)
      await publish()
      const stop = new AbortController()
      const dispatcher = new WebhookDispatcher(h.t.deps, { perEndpoint: 2, heldPerEndpoint: 6 })
      const running = dispatcher.run(stop.signal)
      await receiver.waitFor(2, TIMEOUT_MS)
      return { key, endpointId, stop, dispatcher, running }
    }

    it('claims several of an endpoint at once, sends two, and hands the queued ones back at shutdown', async () => {
      const { endpointId, stop, dispatcher, running } = await stuck(8)
      assert.equal(dispatcher.inFlight, 2)
      assert.equal(dispatcher.queued, 4, 'six held: two in flight, four queued')
      const claimed = (await pendingOf(endpointId)).filter((d) => d.attempts === 1)
      assert.equal(claimed.length, 6)
      assert.ok(claimed.every((d) => d.locked_until !== null))
      stop.abort()
      await running
      assert.equal(receiver.received.length, 2, 'nothing queued is sent after the stop')
      const rows = await pendingOf(endpointId)
      const attempts = await Promise.all(rows.map((d) => attemptsOf(h.t, d.id)))
      // The two sent timed out and wait for their retry; the four queued are as if never claimed.
      assert.equal(attempts.filter((a) => a.length === 1).length, 2)
      const untouched = rows.filter((_, i) => attempts[i]!.length === 0)
      assert.equal(untouched.length, 6)
      assert.ok(untouched.every((d) => d.attempts === 0 && d.locked_until === null && d.state === 'pending'))
      // Another dispatcher takes them at once, with attempt number 1.
      receiver.otherwise = answers.status(200)
      await new WebhookDispatcher(h.t.deps).drain()
      const numbers = (await Promise.all(untouched.map((d) => attemptsOf(h.t, d.id)))).flat()
      assert.deepEqual(
        numbers.map((a) => a.number),
        [1, 1, 1, 1, 1, 1],
      )
    })

    it('a queued delivery that waited over a second reads its endpoint again: deleted, nothing is sent', async () => {
      const { key, endpointId, stop, dispatcher, running } = await stuck(6)
      assert.equal(dispatcher.queued, 4)
      h.t.clock.advance(2000)
      const deleted = await h.t.request(key, { method: 'DELETE', url: `/v1/webhook_endpoints/${endpointId}` })
      assert.equal(deleted.statusCode, 200, deleted.body)
      // The two in flight time out (1.5 s); the queued four then start, read the endpoint and stop.
      await dispatcher.settled()
      assert.equal(dispatcher.queued, 0)
      stop.abort()
      await running
      assert.equal(receiver.received.length, 2, 'a deleted endpoint receives nothing more')
      const rows = await pendingOf(endpointId)
      assert.ok(rows.every((d) => d.state === 'dropped'))
    })
  })

  describe('a failing endpoint', () => {
    it('is slowed to one attempt a second once failing, until an attempt succeeds', async () => {
      const account = await h.t.account()
      const endpoint = await h.endpoint(receiver.url(), ['submission.created'], account.testKey)
      receiver.otherwise = answers.status(503)
      for (let i = 0; i < 12; i++) await h.submission(account.testKey)
      await publish()
      const dispatcher = new WebhookDispatcher(h.t.deps, { perEndpoint: 1 })
      await dispatcher.drain()
      assert.equal(receiver.received.length, 8, 'failing at the 8th failure: then paused')
      await dispatcher.drain()
      assert.equal(receiver.received.length, 8, 'still paused at the same instant')
      h.t.clock.advance(1000)
      await dispatcher.drain()
      assert.equal(receiver.received.length, 9, 'one attempt a second')
      receiver.otherwise = answers.status(200)
      h.t.clock.advance(1000)
      await dispatcher.drain()
      // The success ended the pause: the rest of the first attempts go at once.
      assert.equal(receiver.received.length, 12)
      const got = await h.t.request(account.testKey, {
        method: 'GET',
        url: `/v1/webhook_endpoints/${endpoint.id}`,
      })
      assert.equal(got.json().health.failing, false)
    })
  })

  describe('durability', () => {
    it('a restart in the middle of a retry series goes on with the same event and body', async () => {
      const { key, endpointId } = await fresh(receiver.url())
      receiver.queue.push(answers.status(500), answers.status(502))
      await h.submission(key)
      const start = h.t.clock.epochMs()
      await h.work()
      h.t.clock.set(new Date(start + 30_000))
      await h.work()
      assert.equal(receiver.received.length, 2)
      // Another process on the same database, after this one stopped.
      const restarted = await createDeps(h.t.config, { clock: h.t.clock, logDestination: new LogCapture() })
      try {
        h.t.clock.set(new Date(start + 300_000))
        await new WebhookDispatcher(restarted).drain()
        assert.equal(receiver.received.length, 3)
      } finally {
        await restarted.close()
      }
      const [delivery] = await pendingOf(endpointId)
      assert.equal(delivery?.state, 'delivered')
      assert.equal(delivery?.attempts, 3)
      assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1)
    })

    it('a process that died after its claim: the lease lapses and the attempt is made again', async () => {
      const { key, endpointId } = await fresh(receiver.url())
      await h.submission(key)
      await publish()
      const [candidate] = (await dueDeliveries(h.t.deps.db, h.t.clock.now(), [], 100)).filter(
        (c) => c.endpoint_id === endpointId,
      )
      assert.ok(await claimDelivery(h.t.deps.db, candidate!, h.t.clock.now(), TIMEOUT_MS + 60_000))
      // …and died. Its lease holds the delivery until it lapses.
      await h.dispatcher.drain()
      assert.equal(receiver.received.length, 0)
      h.t.clock.advance(TIMEOUT_MS + 60_000)
      await h.dispatcher.drain()
      assert.equal(receiver.received.length, 1)
      const [delivery] = await pendingOf(endpointId)
      assert.equal(delivery?.state, 'delivered')
      assert.deepEqual(
        (await attemptsOf(h.t, delivery!.id)).map((a) => a.number),
        [2],
      )
    })

    it('a process that died between the send and its record: the one case sent twice, same event', async () => {
      const { key, endpointId } = await fresh(receiver.url())
      await h.submission(key)
      await publish()
      const [candidate] = (await dueDeliveries(h.t.deps.db, h.t.clock.now(), [], 100)).filter(
        (c) => c.endpoint_id === endpointId,
      )
      const claimed = await claimDelivery(h.t.deps.db, candidate!, h.t.clock.now(), TIMEOUT_MS + 60_000)
      const endpoint = await h.t.deps.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpointId)
        .executeTakeFirstOrThrow()
      assert.equal((await postSigned(h.t.deps, endpoint, claimed!.body)).ok, true)
      // …and died before recording it.
      h.t.clock.advance(TIMEOUT_MS + 60_000)
      await h.dispatcher.drain()
      assert.equal(receiver.received.length, 2)
      assert.equal(JSON.parse(receiver.received[0]!.body).id, JSON.parse(receiver.received[1]!.body).id)
      assert.equal((await pendingOf(endpointId))[0]?.state, 'delivered')
    })

    it('an attempt whose lease lapsed cannot overwrite the newer attempt (fence)', async () => {
      const { key, endpointId } = await fresh(receiver.url())
      await h.submission(key)
      await publish()
      const [candidate] = (await dueDeliveries(h.t.deps.db, h.t.clock.now(), [], 100)).filter(
        (c) => c.endpoint_id === endpointId,
      )
      const stale = await claimDelivery(h.t.deps.db, candidate!, h.t.clock.now(), 1000)
      h.t.clock.advance(1000)
      await h.dispatcher.drain() // attempt 2 delivers
      const applied = await h.t.deps.db
        .transaction()
        .execute((tx) =>
          settleDelivery(
            tx,
            stale!.id,
            stale!.attempts,
            { state: 'pending', last_status: 500, last_error: 'HTTP 500' },
            h.t.clock.now().toISOString(),
          ),
        )
      assert.equal(applied, false)
      assert.equal((await pendingOf(endpointId))[0]?.state, 'delivered')
    })
  })

  describe('the loop', () => {
    it('wakes when events.publish makes deliveries, and stops cleanly', async () => {
      const { key } = await fresh(receiver.url())
      const stop = new AbortController()
      const dispatcher = new WebhookDispatcher(h.t.deps, { pollMs: 60_000 })
      const running = dispatcher.run(stop.signal)
      await h.submission(key)
      await publish() // rings the dispatcher's bell: no 60 s poll to wait for
      await receiver.waitFor(1, 5000)
      stop.abort()
      await running
    })
  })
})
