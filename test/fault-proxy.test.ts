// The fault proxy the SDK tests put in front of Paraph (test/fault-proxy.ts): each kind of fault
// does what it says to the client and to the server behind it, planned in-process or over HTTP.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { FaultProxy } from './fault-proxy.ts'

describe('fault proxy', () => {
  let target: Server
  let proxy: FaultProxy
  let reached = 0
  before(async () => {
    target = createServer((req, res) => {
      reached++
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }))
    })
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    proxy = await FaultProxy.start(`http://127.0.0.1:${(target.address() as AddressInfo).port}`)
  })
  after(async () => {
    await proxy.close()
    target.close()
  })

  it('passes requests on, and answers a planned fault after, before or instead of the server', async () => {
    const post = () =>
      fetch(`${proxy.url}/v1/submissions`, {
        method: 'POST',
        headers: { 'idempotency-key': 'k1' },
        body: '{}',
      })
    assert.equal((await post()).status, 201)
    assert.equal(reached, 1)
    proxy.plan({ path: '^/v1/submissions$', when: 'after', status: 503 })
    assert.equal((await post()).status, 503)
    assert.equal(reached, 2, 'the server got it; the client got the fault')
    const planned = await fetch(`${proxy.url}/__faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '^/v1/', when: 'before', status: 429, headers: { 'retry-after': '1' } }),
    })
    assert.equal(planned.status, 201)
    const limited = await post()
    assert.equal(limited.status, 429)
    assert.equal(limited.headers.get('retry-after'), '1')
    assert.equal(reached, 2, 'the server never saw it')
    proxy.plan({ path: '^/v1/', when: 'reset' })
    await assert.rejects(post(), 'a network error')
    assert.equal(reached, 3)
    assert.equal((await post()).status, 201, 'each fault applies once')
    const seen = (await (await fetch(`${proxy.url}/__requests`)).json()) as Array<{ outcome: unknown }>
    assert.deepEqual(
      seen.map((s) => s.outcome),
      [201, 503, 429, 'reset', 201],
    )
    assert.equal(proxy.requests[0]!.idempotencyKey, 'k1')
  })
})
