import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { errorOf } from '../../test/harness.ts'
import { type HookApp, startHookApp } from '../../test/webhooks.ts'
import { RESPONSE_EXCERPT_CHARS, toApiDelivery } from './delivery-schemas.ts'

describe('GET /v1/webhook_endpoints/{id}/deliveries', () => {
  let h: HookApp
  let receiver: WebhookReceiver
  let endpointId: string
  const list = (query = '', id = endpointId, key = h.key) =>
    h.t.request(key, { method: 'GET', url: `/v1/webhook_endpoints/${id}/deliveries${query}` })

  before(async () => {
    h = await startHookApp()
    receiver = await WebhookReceiver.start()
    endpointId = (await h.endpoint(receiver.url(), ['submission.created'])).id
    // Three events: the first delivered at its second attempt, the second delivered, the third pending.
    receiver.queue.push(answers.status(500, 'boom'))
    await h.submission()
    await h.work()
    h.t.clock.advance(30_000)
    await h.work()
    await h.submission()
    await h.work()
    receiver.queue.push(answers.status(418))
    await h.submission()
    await h.work()
  })
  after(async () => {
    await receiver.close()
    await h.close()
  })

  describe('happy', () => {
    it('200 newest first, each delivery with its attempts', async () => {
      const res = await list()
      assert.equal(res.statusCode, 200)
      const { data, has_more } = res.json()
      assert.equal(has_more, false)
      assert.deepEqual(
        data.map((d: { status: string }) => d.status),
        ['pending', 'delivered', 'delivered'],
      )
      const oldest = data[2]
      assert.match(oldest.id, /^dlv_/)
      assert.equal(oldest.object, 'webhook_delivery')
      assert.equal(oldest.endpoint_id, endpointId)
      assert.equal(oldest.event_type, 'submission.created')
      assert.match(oldest.event_id, /^evt_/)
      assert.equal(oldest.next_attempt_at, null)
      assert.deepEqual(
        oldest.attempts.map((a: Record<string, unknown>) => [a.number, a.status, a.error, a.succeeded]),
        [
          [1, 500, 'HTTP 500', false],
          [2, 200, null, true],
        ],
      )
      assert.equal(oldest.attempts[1].at, oldest.delivered_at)
      // What the console's history shows: the body POSTed (the bytes the receiver got) and each answer.
      assert.equal(oldest.request_body, receiver.received[0]!.body)
      assert.equal(JSON.parse(oldest.request_body).type, 'submission.created')
      assert.equal(oldest.attempts[0].response_body, 'boom')
      assert.ok(Number.isInteger(oldest.attempts[0].duration_ms))
      assert.equal(data[0].last_error, 'HTTP 418')
      assert.ok(data[0].next_attempt_at)
    })

    it('filters by outcome and pages', async () => {
      const delivered = (await list('?status=delivered')).json().data
      assert.equal(delivered.length, 2)
      const first = (await list('?status=delivered&limit=1')).json()
      assert.equal(first.has_more, true)
      const second = (
        await list(`?status=delivered&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`)
      ).json()
      assert.deepEqual(
        [first.data[0].id, second.data[0].id],
        delivered.map((d: { id: string }) => d.id),
      )
      assert.equal((await list('?status=dropped')).json().data.length, 0)
    })
  })

  describe('errors', () => {
    it('422 invalid_status for an unknown outcome, invalid_pagination for a cursor of another filter', async () => {
      const bad = await list('?status=exploded')
      assert.equal(errorOf(bad).code, 'invalid_status')
      const { next_cursor } = (await list('?limit=1')).json()
      const other = await list(`?status=delivered&cursor=${encodeURIComponent(next_cursor)}`)
      assert.equal(errorOf(other).code, 'invalid_pagination')
    })
  })

  describe('security', () => {
    it("404 for another account's endpoint", async () => {
      const other = await h.t.account()
      const res = await list('', endpointId, other.testKey)
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
    })
  })
})

describe('a delivery as the API shows it', () => {
  it('shows the first 2 000 characters of an answer, and null when none came', () => {
    const attempt = (number: number, response_body: string | null) => ({
      delivery_id: 'dlv_1',
      number,
      endpoint_id: 'whk_1',
      started_at: '2026-11-26T10:00:00.000Z',
      duration_ms: 3,
      status: response_body === null ? null : 500,
      error: response_body === null ? 'ECONNREFUSED' : 'HTTP 500',
      succeeded: 0,
      response_body,
    })
    const shown = toApiDelivery(
      {
        id: 'dlv_1',
        account_id: 'acct_1',
        environment: 'test',
        endpoint_id: 'whk_1',
        event_id: 'evt_1',
        event_type: 'submission.created',
        event_created_at: '2026-11-26T10:00:00.000Z',
        body: '{"type":"submission.created"}',
        state: 'pending',
        attempts: 2,
        next_attempt_at: '2026-11-26T10:05:00.000Z',
        locked_until: null,
        last_status: null,
        last_error: 'ECONNREFUSED',
        created_at: '2026-11-26T10:00:00.000Z',
        updated_at: '2026-11-26T10:00:30.000Z',
        delivered_at: null,
        test: 0,
      },
      [
        attempt(1, 'x'.repeat(RESPONSE_EXCERPT_CHARS + 500)),
        attempt(2, null),
        { ...attempt(3, ''), delivery_id: 'dlv_2' },
      ],
    )
    assert.equal(shown.request_body, '{"type":"submission.created"}')
    assert.deepEqual(
      shown.attempts.map((a) => a.response_body?.length ?? null),
      [RESPONSE_EXCERPT_CHARS, null],
    )
  })
})
