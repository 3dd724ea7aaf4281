// `bulk_send.completed` to a real receiver on loopback (docs/api.md#bulk-send,
// docs/webhooks.md#the-body): an endpoint subscribed to it alone gets one signed delivery when the
// job's last row is done, carrying the bulk send as `data.object`, and none of the submissions'.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bulkRow, bulkTemplate } from '../../test/bulk.ts'
import { post } from '../../test/documents.ts'
import { signatureHex as hmac, parseSignature, useDeliveryApp } from '../../test/webhooks.ts'

describe('bulk_send.completed by webhook', () => {
  const c = useDeliveryApp()

  it('one signed delivery with the bulk send as data.object when the last row is done', async () => {
    const { key, endpoint } = await c.fresh(undefined, ['bulk_send.completed'])
    const templateId = await bulkTemplate(c.h.t, key)
    const res = await post(c.h.t, key, '/v1/bulk_sends', {
      template_id: templateId,
      send_email: false,
      rows: [bulkRow(1), bulkRow(2), { ...bulkRow(3), values: { Salary: 'x' } }],
    })
    assert.equal(res.statusCode, 202, res.body)
    await c.h.work()
    assert.equal(c.receiver.received.length, 1)
    const hook = c.receiver.received[0]!
    const { t, v1 } = parseSignature(hook.headers['paraph-signature'])
    assert.deepEqual(v1, [hmac(endpoint.secret, t, hook.body)])
    const body = JSON.parse(hook.body)
    assert.equal(body.type, 'bulk_send.completed')
    assert.equal(body.data.object.object, 'bulk_send')
    assert.equal(body.data.object.id, res.json().id)
    assert.equal(body.data.object.status, 'completed_with_errors')
    assert.deepEqual(body.data.object.counts, { total: 3, created: 2, failed: 1, cancelled: 0, pending: 0 })
  })
})
