// The editor's preview as a signer (docs/console.md#preview-as-a-signer): POST
// /console/api/template_drafts/:id/preview makes a test-environment copy of the draft as drawn
// now, whatever environment the console shows, and answers the chosen role's signing URL. The copy
// sends nothing: no mail job, no webhook delivery (a real receiver on loopback sees none, while an
// ordinary submission of the same account reaches it), and its signing form says it is a preview.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { pdfOfPages } from '../../../test/fixtures/pdfs.ts'
import { WebhookReceiver } from '../../../test/fixtures/webhook-receiver.ts'
import { errorOf } from '../../../test/harness.ts'
import { jobsOf, SIGNATURE, signer, submissionRow } from '../../../test/signing.ts'
import { deliveries, type HookApp, startHookApp } from '../../../test/webhooks.ts'

const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.3, h: 0.06 }]
const FIELDS = [
  { name: 'Client signature', type: 'signature', role: 'Client', areas: area(0.7) },
  { name: 'Client city', type: 'text', role: 'Client', areas: area(0.6) },
  { name: 'Provider signature', type: 'signature', role: 'Provider', areas: area(0.8) },
]
const EVERY_EVENT = [
  'submission.created',
  'submission.sent',
  'submission.completed',
  'submission.expired',
  'submission.cancelled',
  'submission.declined',
]

describe('preview as a signer (POST /console/api/template_drafts/:id/preview)', () => {
  let hook: HookApp
  let receiver: WebhookReceiver
  let member: ConsoleClient
  let pdf: Buffer
  before(async () => {
    hook = await startHookApp()
    receiver = await WebhookReceiver.start()
    await hook.endpoint(receiver.url(), EVERY_EVENT)
    member = await signedInMember(hook.t, hook.accountId, { role: 'editor' })
    pdf = Buffer.from(await pdfOfPages([PageSizes.A4]))
  })
  after(async () => {
    await receiver?.close()
    await hook?.close()
  })

  const upload = async (client = member) => {
    const res = await client.request({
      method: 'POST',
      url: '/console/api/template_drafts?name=Service%20agreement',
      headers: { 'content-type': 'application/pdf' },
      payload: pdf,
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as { id: string }
  }
  const preview = (draftId: string, payload: object, client = member) =>
    client.request({ method: 'POST', url: `/console/api/template_drafts/${draftId}/preview`, payload })
  const slugOf = (url: string) => new URL(url).pathname.split('/').pop()!

  describe('happy', () => {
    it('201 answers the role’s signing URL on a test copy that mails nobody and posts no webhook', async () => {
      const draft = await upload()
      const res = await preview(draft.id, { name: 'Service agreement v2', fields: FIELDS, role: 'Client' })
      assert.equal(res.statusCode, 201, res.body)
      const answer = res.json()
      assert.equal(answer.object, 'template_preview')
      assert.equal(answer.role, 'Client')
      assert.match(answer.signing_url, /\/s\/[A-Za-z0-9_-]+$/)
      assert.equal(answer.expires_at, new Date(hook.t.clock.now().getTime() + 86_400_000).toISOString())

      const row = await submissionRow(hook.t, answer.submission_id)
      assert.deepEqual([row.environment, row.preview, row.send_email], ['test', 1, 0])
      const people = await hook.t.deps.db
        .selectFrom('submitters')
        .select(['role', 'name', 'email', 'send_email'])
        .where('submission_id', '=', answer.submission_id)
        .orderBy('position')
        .execute()
      assert.deepEqual(people, [
        { role: 'Client', name: 'Client', email: 'signer1@preview.invalid', send_email: 0 },
        { role: 'Provider', name: 'Provider', email: 'signer2@preview.invalid', send_email: 0 },
      ])

      const client = { id: '', email: '', signing_url: answer.signing_url, embed_src: '' }
      const form = await signer(hook.t, client, 'form')
      assert.equal(form.statusCode, 200, form.body)
      assert.equal(form.json().submission.preview, true)
      assert.equal(form.json().submission.name, 'Service agreement v2')
      assert.equal(form.json().submitter.role, 'Client')
      assert.deepEqual(
        form.json().fields.map((f: { name: string }) => f.name),
        FIELDS.map((f) => f.name),
      )
      const signed = await signer(hook.t, client, 'sign', {
        values: { 'Client signature': SIGNATURE, 'Client city': 'Lyon' },
      })
      assert.equal(signed.statusCode, 200, signed.body)
      assert.equal(slugOf(answer.signing_url).length > 10, true)

      await hook.work()
      const mine = (await deliveries(hook.t)).filter((d) => d.body.includes(answer.submission_id))
      assert.deepEqual(mine, [], 'a preview makes no webhook delivery')
      assert.deepEqual(await jobsOf(hook.t, 'mail.send'), [], 'a preview queues no mail')

      // The same account's ordinary submission does reach the receiver: the check above can fail.
      const ordinary = await hook.submission()
      await hook.work()
      const bodies = receiver.received.map((r) => r.body)
      assert.ok(
        bodies.some((b) => b.includes(ordinary)),
        'an ordinary submission is delivered',
      )
      assert.ok(!bodies.some((b) => b.includes(answer.submission_id)))

      // Nobody is bound: the signature is not counted, and the copy is not among the submissions
      // listed (the ordinary one is), though it answers by its id.
      const counted = await hook.t.deps.db
        .selectFrom('signatures')
        .select('submission_id')
        .where('account_id', '=', hook.accountId)
        .execute()
      assert.ok(!counted.some((s) => s.submission_id === answer.submission_id), 'not in the usage ledger')
      const listed = await hook.t.request(hook.key, { method: 'GET', url: '/v1/submissions?limit=100' })
      const ids = listed.json().data.map((s: { id: string }) => s.id)
      assert.ok(ids.includes(ordinary) && !ids.includes(answer.submission_id), ids.join(', '))
      const one = await hook.t.request(hook.key, {
        method: 'GET',
        url: `/v1/submissions/${answer.submission_id}`,
      })
      assert.equal(one.statusCode, 200)
    })

    it('201 a console showing live data still previews in the test environment', async () => {
      const live = await signedInMember(hook.t, hook.accountId)
      const switched = await live.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      assert.equal(switched.statusCode, 200, switched.body)
      const draft = await upload(live)
      const res = await preview(draft.id, { fields: FIELDS, role: 'Provider' }, live)
      assert.equal(res.statusCode, 201, res.body)
      const row = await submissionRow(hook.t, res.json().submission_id)
      assert.equal(row.environment, 'test')
      assert.equal(row.preview, 1)
      const name = await hook.t.deps.db
        .selectFrom('templates')
        .select('name')
        .where('id', '=', row.template_id)
        .executeTakeFirstOrThrow()
      assert.equal(name.name, 'Service agreement', 'without a name, the draft’s')
    })
  })

  describe('refusals', () => {
    it('422 submitter_role_not_in_template when the role has no field, and nothing is made', async () => {
      const draft = await upload()
      const before = await hook.t.deps.db.selectFrom('submissions').select('id').execute()
      const res = await preview(draft.id, { fields: FIELDS, role: 'Witness' })
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'submitter_role_not_in_template')
      assert.match(errorOf(res).message, /role: "Witness" has no field in this draft/)
      const now = await hook.t.deps.db.selectFrom('submissions').select('id').execute()
      assert.equal(now.length, before.length)
    })

    it('422 with no field, 404 for another account’s draft', async () => {
      const draft = await upload()
      const empty = await preview(draft.id, { fields: [], role: 'Client' })
      assert.equal(empty.statusCode, 422, empty.body)
      assert.equal(errorOf(empty).code, 'invalid_request')
      assert.match(errorOf(empty).message, /fields/)
      const stranger = await signedInMember(hook.t, (await hook.t.account('Other')).accountId)
      const theirs = await preview(draft.id, { fields: FIELDS, role: 'Client' }, stranger)
      assert.equal(theirs.statusCode, 404, theirs.body)
      assert.equal(errorOf(theirs).code, 'resource_not_found')
    })

    it('422 invalid_field_area for an area off the page, as the save answers it', async () => {
      const draft = await upload()
      const off = [{ ...FIELDS[0]!, areas: [{ page: 3, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }] }]
      const res = await preview(draft.id, { fields: off, role: 'Client' })
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_field_area')
    })
  })
})
