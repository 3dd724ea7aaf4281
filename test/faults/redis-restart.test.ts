// docs/scaling.md#redis-smtp-webhook-receivers: Redis (the shared rate-limit counters) killed and
// started again. Requests keep succeeding meanwhile (counted in the process) and the counters are
// shared again once it is back. A Redis server of the test's own on a free port: the machine's
// shared Redis is never stopped.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { startTestApp, type TestApp } from '../harness.ts'
import { until } from '../paraph-process.ts'

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

function startRedis(port: number): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  )
}

describe('Redis killed and started again', () => {
  let port: number
  let redis: ChildProcess
  let t: TestApp
  let key: string
  let probe: Redis

  before(async () => {
    port = await freePort()
    redis = startRedis(port)
    probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 })
    probe.on('error', () => {})
    await until(
      'the test Redis answers',
      () =>
        probe.ping().then(
          () => true,
          () => undefined,
        ),
      10_000,
    )
    t = await startTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_TEST: '1000' } })
    key = (await t.account()).testKey
  })

  after(async () => {
    probe.disconnect()
    await t.close()
    redis.kill('SIGKILL')
  })

  const health = () => t.request(key, { method: 'GET', url: '/v1/health' })
  const sharedCounters = async () => (await probe.keys(`${t.rateLimitPrefix}:*`)).length

  it('every request succeeds while Redis is gone and after it is back; counters shared again', async () => {
    assert.equal((await health()).statusCode, 200)
    assert.ok((await sharedCounters()) > 0, 'counted in Redis at first')

    redis.kill('SIGKILL')
    await new Promise((resolve) => redis.once('exit', resolve))
    for (let i = 0; i < 20; i++) {
      const res = await health()
      assert.equal(res.statusCode, 200, res.body)
      assert.ok(res.headers['x-ratelimit-remaining'], 'still counted, in the process')
    }

    redis = startRedis(port)
    await until(
      'the test Redis answers again',
      () =>
        probe.ping().then(
          () => true,
          () => undefined,
        ),
      10_000,
    )
    assert.equal(await sharedCounters(), 0, 'a new, empty Redis')
    // The app's client reconnects by itself (ioredis retries with a growing pause up to 2 s).
    await until(
      'the app counts in Redis again',
      async () => {
        assert.equal((await health()).statusCode, 200)
        return (await sharedCounters()) > 0 ? true : undefined
      },
      15_000,
    )
  })
})
