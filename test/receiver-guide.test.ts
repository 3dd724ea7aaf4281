// The receiver guide (docs/webhooks.md), run as written against real deliveries: its dependency-free
// verifier and receiver (the first `js` block of "Receiving webhooks", copied to a module and imported), and
// the official `stripe` package's webhooks.constructEvent, both on bodies and Paraph-Signature
// headers Paraph actually sent — a retry of the same event and a delivery during a secret rotation
// (two v1) included.
import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import Stripe from 'stripe'
import { WebhookReceiver } from './fixtures/webhook-receiver.ts'
import { deliveries, type HookApp, startHookApp } from './webhooks.ts'

interface Guide {
  verifyParaphSignature(
    rawBody: Buffer | string,
    header: unknown,
    secret: string,
    tolerance?: number,
  ): boolean
  paraphReceiver(secret: string, handle: (event: { id: string; type: string }) => void): RequestListener
}

async function receiverGuide(dir: string): Promise<Guide> {
  const guide = await readFile(new URL('../docs/webhooks.md', import.meta.url), 'utf8')
  const section = guide.slice(guide.indexOf('# Receiving webhooks'))
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
  assert.ok(code.includes('verifyParaphSignature'), 'docs/webhooks.md has the receiver snippet')
  const file = join(dir, 'receiver.mjs')
  await writeFile(file, code)
  return (await import(pathToFileURL(file).href)) as Guide
}

describe('docs/webhooks.md receiver guide', () => {
  let h: HookApp
  let dir: string
  let guide: Guide
  const stripe = new Stripe('sk_test_unused')

  before(async () => {
    // Real time: both verifiers check `t` against their own clock (300 s tolerance).
    h = await startHookApp({ clockStart: new Date() })
    dir = await mkdtemp(join(tmpdir(), 'paraph-guide-'))
    guide = await receiverGuide(dir)
  })
  after(async () => {
    await h.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('the snippet and stripe-node verify real deliveries, a retry and a rotation; both refuse a changed byte, another secret or an old t', async () => {
    const receiver = await WebhookReceiver.start()
    try {
      const endpoint = await h.endpoint(receiver.url(), ['submission.created', 'submission.cancelled'])
      const subId = await h.submission()
      await h.work()
      // A retry of the same event.
      const [delivery] = (await deliveries(h.t)).filter((d) => d.endpoint_id === endpoint.id)
      const retried = await h.t.request(h.key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/retry`,
      })
      assert.equal(retried.statusCode, 200)
      // A delivery during a rotation: signed with the new and the old secret.
      const rotated = await h.t.request(h.key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`,
        payload: {},
      })
      const newSecret = rotated.json().secret as string
      await h.t.request(h.key, { method: 'DELETE', url: `/v1/submissions/${subId}` })
      await h.work()
      assert.equal(receiver.received.length, 3)
      const [first, again, during] = receiver.received
      assert.equal(String(during!.headers['paraph-signature']).split(',v1=').length, 3)

      for (const [hook, secrets] of [
        [first!, [endpoint.secret]],
        [again!, [endpoint.secret]],
        [during!, [newSecret, endpoint.secret]],
      ] as const) {
        const header = String(hook.headers['paraph-signature'])
        for (const secret of secrets) {
          assert.equal(guide.verifyParaphSignature(Buffer.from(hook.body), header, secret), true)
          const event = stripe.webhooks.constructEvent(hook.body, header, secret) as unknown as { id: string }
          assert.equal(event.id, JSON.parse(hook.body).id)
        }
        const changed = hook.body.replace('"type":"', '"type":"x')
        const other = `whsec_${'A'.repeat(32)}`
        assert.equal(guide.verifyParaphSignature(changed, header, secrets[0]), false)
        assert.equal(guide.verifyParaphSignature(hook.body, header, other), false)
        assert.throws(() => stripe.webhooks.constructEvent(changed, header, secrets[0]))
        assert.throws(() => stripe.webhooks.constructEvent(hook.body, header, other))
      }
      assert.equal(JSON.parse(first!.body).id, JSON.parse(again!.body).id)

      // A delivery signed by a clock ten minutes behind is too old for both.
      h.t.clock.advance(-600_000)
      await h.t.request(h.key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/retry`,
      })
      h.t.clock.advance(600_000)
      const old = receiver.received[3]!
      const oldHeader = String(old.headers['paraph-signature'])
      assert.equal(guide.verifyParaphSignature(old.body, oldHeader, newSecret), false)
      assert.throws(() => stripe.webhooks.constructEvent(old.body, oldHeader, newSecret), /timestamp/i)
    } finally {
      await receiver.close()
    }
  })

  it("the snippet's receiver answers 200, hands each event to its handler once, and 400 to a forged one", async () => {
    const handled: string[] = []
    let secret = ''
    const server: Server = createServer((req, res) => listener(req, res))
    let listener: RequestListener = () => {}
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const endpoint = await h.endpoint(`http://127.0.0.1:${port}/paraph`, ['submission.created'])
      secret = endpoint.secret
      listener = guide.paraphReceiver(secret, (event) => handled.push(event.id))
      await h.submission()
      await h.work()
      const [delivery] = (await deliveries(h.t)).filter((d) => d.endpoint_id === endpoint.id)
      assert.equal(delivery?.state, 'delivered')
      const retried = await h.t.request(h.key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/retry`,
      })
      assert.equal(retried.json().status, 'delivered', 'a repeat is answered 200 too')
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(handled, [delivery!.event_id], 'handled once')
      const forged = await fetch(`http://127.0.0.1:${port}/paraph`, {
        method: 'POST',
        headers: { 'paraph-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
        body: delivery!.body,
      })
      assert.equal(forged.status, 400)
      assert.equal(handled.length, 1)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
