// The OpenAPI `webhooks` section against real deliveries (docs/webhooks.md#in-the-openapi-description):
// every type an endpoint can receive happens for real through the API and the signer routes — a
// signer group's member opens and signs, a reminder, the other signer signs, the sealing, a decline,
// a cancellation, an expiry, purges (one of them scrubbing deliveries still waiting), a bulk send and
// the test route — and is delivered to a real receiver on loopback. Each body is validated with Ajv
// against the schema of its type taken from the served GET /openapi.yaml ($refs resolved to its
// components, every object closed so that a key the description lacks fails too). A type never seen
// fails the test. Nothing is mocked.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'
import { bulkRow, bulkTemplate } from '../../test/bulk.ts'
import { post } from '../../test/documents.ts'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { type CreatedGroup, groupBody, memberOf } from '../../test/groups.ts'
import { createSubmission, everyTypeBody, FIRST_VALUES, SIGNATURE, signer } from '../../test/signing.ts'
import { type HookApp, startHookApp } from '../../test/webhooks.ts'
import { DELIVERED_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../events/event-types.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { expireDueSubmissions } from '../submissions/expire-submissions.ts'

// ajv and ajv-formats are CommonJS with a default export.
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module
const addFormats = addFormatsModule.default ?? addFormatsModule

type Schema = Record<string, unknown>
type Body = { id: string; type: string; data: { object: Record<string, unknown>; member?: unknown } }

/** The components with `#/components/schemas/X` as `#/$defs/X`, and every object with properties closed. */
function closedDefinitions(schemas: Record<string, Schema>): Record<string, unknown> {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite)
    if (value === null || typeof value !== 'object') return value
    const copy: Schema = {}
    for (const [k, v] of Object.entries(value)) {
      copy[k] = k === '$ref' ? String(v).replace('#/components/schemas/', '#/$defs/') : rewrite(v)
    }
    if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false
    return copy
  }
  const defs = rewrite(schemas) as Record<string, Schema>
  // Ajv does not take OpenAPI's `discriminator` with a `mapping`; the oneOf alone is checked.
  const { discriminator: _, ...union } = defs.WebhookEvent!
  return { ...defs, WebhookEvent: union }
}

describe('real deliveries against the OpenAPI webhooks section', () => {
  let h: HookApp
  let receiver: WebhookReceiver
  let doc: {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>
  }
  let validators: Map<string, (body: unknown) => string | null>

  before(async () => {
    h = await startHookApp({ webhookTimeoutMs: 5000 })
    receiver = await WebhookReceiver.start()
    const res = await h.t.app.inject({ method: 'GET', url: '/openapi.yaml' })
    assert.equal(res.statusCode, 200)
    doc = parse(res.body)
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
    addFormats(ajv)
    const $defs = closedDefinitions(
      (parse(res.body) as { components: { schemas: Record<string, Schema> } }).components.schemas,
    )
    validators = new Map()
    for (const [type, { post: operation }] of Object.entries(doc.webhooks)) {
      const { $ref } = operation.requestBody.content['application/json']!.schema as { $ref: string }
      const validate = ajv.compile({ $ref: $ref.replace('#/components/schemas/', '#/$defs/'), $defs })
      validators.set(type, (body) => (validate(body) ? null : ajv.errorsText(validate.errors)))
    }
    const union = ajv.compile({ $ref: '#/$defs/WebhookEvent', $defs })
    validators.set('*', (body) => (union(body) ? null : ajv.errorsText(union.errors)))
  })
  after(async () => {
    closePdfFinalizer()
    await receiver.close()
    await h.close()
  })

  const request = (method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    h.t.request(h.key, { method, url, ...(payload === undefined ? {} : { payload }) })

  const ok = async (res: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const answer = await res
    assert.equal(answer.statusCode, status, answer.body)
  }

  /** A signer group's member and a second signer sign; a reminder between; sealed; purged. */
  async function signedRemindedCompletedPurged() {
    const created = (await createSubmission(h.t, h.key, await groupBody(['first', 'second']))) as CreatedGroup
    const ann = memberOf(created, 0, 0)
    await ok(signer(h.t, ann, 'open'))
    await ok(signer(h.t, ann, 'sign', { values: FIRST_VALUES }))
    await ok(request('POST', `/v1/submitters/${created.submitters[1]!.id}/remind`))
    await ok(signer(h.t, created.submitters[1]!, 'sign', { values: { 'second signature': SIGNATURE } }))
    await h.work()
    await ok(request('POST', `/v1/submissions/${created.id}/purge`))
  }

  async function declined() {
    const created = await createSubmission(h.t, h.key, await everyTypeBody(['first']))
    await ok(signer(h.t, created.submitters[0]!, 'decline', { reason: 'The amount is wrong.' }))
  }

  async function expired() {
    const expiresAt = new Date(h.t.clock.epochMs() + 60_000).toISOString()
    await createSubmission(h.t, h.key, await everyTypeBody(['first'], { expires_at: expiresAt }))
    h.t.clock.advance(60_001)
    assert.equal(await expireDueSubmissions(h.t.deps), 1)
  }

  /** Published while waiting, purged before it is sent: the deliveries go out scrubbed. */
  async function cancelledThenPurgedBeforeDelivery() {
    const id = await h.submission()
    await ok(request('DELETE', `/v1/submissions/${id}`))
    await drainJobs({ ...h.t.deps, catalogue: jobCatalogue(h.t.deps) })
    await ok(request('POST', `/v1/submissions/${id}/purge`))
  }

  async function bulkSend() {
    const templateId = await bulkTemplate(h.t, h.key)
    await ok(
      post(h.t, h.key, '/v1/bulk_sends', { template_id: templateId, send_email: false, rows: [bulkRow(1)] }),
      202,
    )
  }

  it('every deliverable type is delivered, and every body validates against the schema of its type', async () => {
    const endpoint = await h.endpoint(receiver.url(), [...WEBHOOK_EVENT_TYPES])
    await signedRemindedCompletedPurged()
    await declined()
    await cancelledThenPurgedBeforeDelivery()
    await expired()
    await bulkSend()
    await h.work()
    await ok(request('POST', `/v1/webhook_endpoints/${endpoint.id}/test`))

    const bodies = receiver.received.map((hook) => JSON.parse(hook.body) as Body)
    const byType = new Map<string, Body[]>()
    for (const body of bodies) byType.set(body.type, [...(byType.get(body.type) ?? []), body])
    const missing = DELIVERED_EVENT_TYPES.filter((type) => !byType.has(type))
    assert.deepEqual(missing, [], `types never delivered: ${missing.join(', ')}`)
    for (const body of bodies) {
      const validate = validators.get(body.type)
      assert.ok(validate, `${body.type} is in the webhooks section`)
      assert.equal(validate(body), null, `${body.type} ${body.id}`)
      assert.equal(validators.get('*')!(body), null, `${body.type} ${body.id} is one WebhookEvent`)
    }
    // What the optional and nullable parts are for was delivered too, so it was checked.
    assert.ok(
      bodies.some((b) => b.data.member && typeof b.data.member === 'object'),
      'a member of a signer group acted',
    )
    const scrubbed = bodies.filter(
      (b) => b.type !== 'submission.purged' && b.data.object.audit_log_url === null,
    )
    assert.ok(scrubbed.length > 0, 'a delivery scrubbed by a purge was sent')
    assert.ok(
      bodies.some(
        (b) => Array.isArray(b.data.object.submitters) && JSON.stringify(b).includes('"members":['),
      ),
      'a snapshot with a signer group',
    )
  })

  it('a body off its schema is refused: the check can fail', () => {
    const body = {
      id: `evt_${'A'.repeat(24)}`,
      type: 'bulk_send.completed',
      created_at: '2026-11-22T10:15:30.123Z',
      data: { object: { object: 'bulk_send' } },
    }
    assert.match(String(validators.get('bulk_send.completed')!(body)), /must have required property/)
    const wrongType = { ...body, type: 'submission.created' }
    assert.match(String(validators.get('bulk_send.completed')!(wrongType)), /must be equal to constant/)
    assert.notEqual(validators.get('*')!(body), null)
    const test = {
      ...body,
      type: 'webhook.test',
      data: {
        object: { id: `whk_${'B'.repeat(24)}`, object: 'webhook_endpoint', url: 'https://x.example/h' },
      },
    }
    assert.equal(validators.get('webhook.test')!(test), null)
    const extra = { ...test, data: { ...test.data, object: { ...test.data.object, secret: 'x' } } }
    assert.match(String(validators.get('webhook.test')!(extra)), /must NOT have additional properties/)
  })
})
