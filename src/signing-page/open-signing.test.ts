import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  signer,
  submissionRow,
  submitterRow,
} from '../../test/signing.ts'

describe('POST /s/{slug}/open and /embed/{jwt}/open', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  it('200: the first open records the signer (time, address, agent, link) and the submission is viewed', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const res = await signer(t, created.submitters[0]!, 'open')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().state, 'ready')
    assert.equal(res.json().submitter.status, 'opened')
    const row = await submitterRow(t, created.submitters[0]!.id)
    assert.deepEqual(
      [row.status, row.opened_ip, row.opened_user_agent, row.opened_via],
      ['opened', '203.0.113.7', 'SignerBrowser/1.0', 'link'],
    )
    assert.equal(row.opened_at, t.clock.now().toISOString())
    assert.equal((await submissionRow(t, created.id)).status, 'viewed')
    const events = await eventsOf(t, created.id)
    assert.deepEqual(
      events.map((e) => [e.type, e.submitter_id]),
      [
        ['submission.created', null],
        ['submission.sent', null],
        ['submitter.opened', created.submitters[0]!.id],
        ['submission.viewed', created.submitters[0]!.id],
      ],
    )
  })

  it('repeating it changes nothing; a second signer opening a viewed submission adds only submitter.opened', async () => {
    const created = await createSubmission(
      t,
      key,
      await everyTypeBody(['first', 'second'], { signing_order: 'random' }),
    )
    await signer(t, created.submitters[0]!, 'open')
    const before = await submitterRow(t, created.submitters[0]!.id)
    t.clock.advance(1000)
    const again = await signer(t, created.submitters[0]!, 'open', undefined, 'embed')
    assert.equal(again.statusCode, 200)
    assert.deepEqual(await submitterRow(t, created.submitters[0]!.id), before)
    await signer(t, created.submitters[1]!, 'open', undefined, 'embed')
    assert.equal((await submitterRow(t, created.submitters[1]!.id)).opened_via, 'embed')
    const types = (await eventsOf(t, created.id)).map((e) => e.type)
    assert.deepEqual(types.slice(2), ['submitter.opened', 'submission.viewed', 'submitter.opened'])
  })

  it('a partially signed submission stays partially_signed when the next signer opens', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    await signer(t, created.submitters[1]!, 'open')
    assert.equal((await submissionRow(t, created.id)).status, 'partially_signed')
    assert.equal((await submitterRow(t, created.submitters[1]!.id)).status, 'opened')
  })

  it('200 without any change once the submission is cancelled; the form says so', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
    const res = await signer(t, created.submitters[0]!, 'open')
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().state, 'cancelled')
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'pending')
  })

  it('403 email_2fa_required for a signer who must verify an e-mail code first, nothing recorded', async () => {
    const body = await everyTypeBody(['first'])
    body.submitters[0] = { ...body.submitters[0]!, require_email_2fa: true } as never
    const created = await createSubmission(t, key, body)
    const res = await signer(t, created.submitters[0]!, 'open')
    assert.equal(res.statusCode, 403, res.body)
    assert.equal(errorOf(res).code, 'email_2fa_required')
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'pending')
  })

  it('GET …/form never changes anything', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const before = await submitterRow(t, created.submitters[0]!.id)
    for (const via of ['link', 'embed'] as const) {
      assert.equal((await signer(t, created.submitters[0]!, 'form', undefined, via)).statusCode, 200)
    }
    assert.deepEqual(await submitterRow(t, created.submitters[0]!.id), before)
    assert.equal((await eventsOf(t, created.id)).length, 2)
  })
})
