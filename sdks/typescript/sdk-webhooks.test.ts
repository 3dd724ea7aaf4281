// webhooks.verify against deliveries Paraph really sent (docs/sdks.md#webhooks,
// docs/webhooks.md#the-signature): an endpoint registered through the SDK to a real receiver on
// loopback, events made, the outbox drained; each received raw body and Paraph-Signature header
// verified into its event; refused after one byte changed, with another secret, outside the
// tolerance (a delivery signed by a clock 10 minutes behind), without a header; verified with the
// OLD secret alone and with the new one during a rotation.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { pdfBody, type SdkApp, startSdkApp, work } from './sdk-test-kit.ts'
import { type Paraph, type WebhookEventType, WebhookVerificationError, webhooks } from './src/paraph.ts'

describe('webhooks.verify on real deliveries', () => {
  let s: SdkApp
  let receiver: WebhookReceiver
  let paraph: Paraph
  before(async () => {
    // Real time: verify checks `t` against this process's clock.
    s = await startSdkApp({ clockStart: new Date() })
    receiver = await WebhookReceiver.start()
    paraph = s.client()
  })
  after(async () => {
    await receiver.close()
    await s.close()
  })

  const refusal = (reason: string) => (error: unknown) =>
    error instanceof WebhookVerificationError && error.reason === reason

  it('verifies a delivery into its event; refuses a changed byte, another secret, a missing header', async () => {
    const endpoint = await paraph.createWebhookEndpoint({
      body: { url: receiver.url(), events: ['submission.created', 'submission.cancelled'] },
    })
    const created = await paraph.createSubmissionFromPdf({ body: await pdfBody() })
    await work(s.t)
    await receiver.waitFor(1)
    const [hook] = receiver.received
    const raw = Buffer.from(hook!.body, 'utf8')
    const header = hook!.headers['paraph-signature']

    const event = await paraph.webhooks.verify(raw, header, [endpoint.secret])
    // The event is a union on `type` (the OpenAPI webhooks section): narrowing types `data`.
    if (event.type !== 'submission.created') assert.fail(`got ${event.type}`)
    assert.equal(event.data.object.id, created.id)
    assert.equal(event.data.object.submitters[0]?.email, 'ann@example.eu')
    // @ts-expect-error no such event type
    const unknownType: WebhookEventType = 'submission.nope'
    assert.ok(unknownType)
    assert.match(event.id, /^evt_/)
    assert.deepEqual(
      await webhooks.verify(hook!.body, header, endpoint.secret),
      event,
      'text body, one secret',
    )

    for (let i = 0; i < raw.length; i += Math.ceil(raw.length / 7)) {
      const changed = Buffer.from(raw)
      changed[i] = changed[i]! ^ 0x01
      await assert.rejects(
        webhooks.verify(changed, header, [endpoint.secret]),
        refusal('no_matching_signature'),
      )
    }
    await assert.rejects(
      webhooks.verify(raw, header, [`whsec_${'A'.repeat(32)}`]),
      refusal('no_matching_signature'),
    )
    await assert.rejects(webhooks.verify(raw, undefined, [endpoint.secret]), refusal('missing_header'))
    await assert.rejects(webhooks.verify(raw, 't=1,v1=zz', [endpoint.secret]), refusal('malformed_header'))
  })

  it('refuses a delivery outside the tolerance: signed 10 minutes ago, or checked 301 s after t', async () => {
    const endpoint = await paraph.createWebhookEndpoint({
      body: { url: receiver.url('/late'), events: ['submission.created'] },
    })
    const count = receiver.received.length
    s.t.clock.advance(-600_000)
    await paraph.createSubmissionFromPdf({ body: await pdfBody() })
    await work(s.t)
    s.t.clock.advance(600_000)
    await receiver.waitFor(count + 1)
    const late = receiver.received.filter((r) => r.path === '/late')
    assert.equal(late.length, 1)
    const header = String(late[0]!.headers['paraph-signature'])
    await assert.rejects(
      webhooks.verify(late[0]!.body, header, [endpoint.secret]),
      refusal('timestamp_outside_tolerance'),
    )
    const t = Number(/t=(\d+)/.exec(header)![1])
    await assert.rejects(
      webhooks.verify(late[0]!.body, header, [endpoint.secret], { now: (t + 301) * 1000 }),
      refusal('timestamp_outside_tolerance'),
    )
    const accepted = await webhooks.verify(late[0]!.body, header, [endpoint.secret], {
      toleranceSeconds: 900,
    })
    assert.equal(accepted.type, 'submission.created')
  })

  it('during a rotation: two v1, verified with the old secret alone, the new one alone, or both', async () => {
    const endpoint = await paraph.createWebhookEndpoint({
      body: { url: receiver.url('/rotated'), events: ['submission.cancelled'] },
    })
    const rotated = await paraph.rotateWebhookSecret({ path: { id: endpoint.id }, body: {} })
    assert.notEqual(rotated.secret, endpoint.secret)
    const created = await paraph.createSubmissionFromPdf({ body: await pdfBody() })
    await paraph.cancelSubmission({ path: { id: created.id } })
    await work(s.t)
    const hook = receiver.received.find((r) => r.path === '/rotated')
    assert.ok(hook, 'the cancellation was delivered')
    const header = String(hook.headers['paraph-signature'])
    assert.equal(header.split(',v1=').length, 3, 'one v1 per secret in force')
    for (const secrets of [[endpoint.secret], [rotated.secret], [rotated.secret, endpoint.secret]]) {
      const event = await webhooks.verify(hook.body, header, secrets)
      assert.equal(event.type, 'submission.cancelled')
      assert.equal(event.data.object.id, created.id)
    }
    await assert.rejects(webhooks.verify(hook.body, header, []), refusal('no_matching_signature'))
  })
})
