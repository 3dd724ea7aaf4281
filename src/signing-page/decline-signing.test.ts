import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  refused,
  SIGNATURE,
  signer,
  submissionRow,
  submitterRow,
} from '../../test/signing.ts'

describe('POST /s/{slug}/decline and /embed/{jwt}/decline', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  it('200: the signer and the submission become declined, with the reason, in one journal entry', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const res = await signer(t, created.submitters[0]!, 'decline', { reason: '  The amount is wrong.  ' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().state, 'declined')
    const row = await submitterRow(t, created.submitters[0]!.id)
    assert.deepEqual(
      [row.status, row.decline_reason, row.declined_ip, row.declined_user_agent],
      ['declined', 'The amount is wrong.', '203.0.113.7', 'SignerBrowser/1.0'],
    )
    const submission = await submissionRow(t, created.id)
    assert.equal(submission.status, 'declined')
    assert.equal(submission.declined_at, t.clock.now().toISOString())
    const declined = (await eventsOf(t, created.id)).filter((e) => e.type === 'submission.declined')
    assert.equal(declined.length, 1)
    assert.equal(declined[0]!.submitter_id, created.submitters[0]!.id)
    const read = await t.request(key, { method: 'GET', url: `/v1/submissions/${created.id}` })
    assert.equal(read.json().status, 'declined')
    assert.equal(read.json().submitters[0].decline_reason, 'The amount is wrong.')
  })

  it('then every act is refused: 409 for the decliner, 410 for the others, and cancel is 409', async () => {
    const created = await createSubmission(
      t,
      key,
      await everyTypeBody(['first', 'second'], { signing_order: 'random' }),
    )
    await signer(t, created.submitters[1]!, 'decline', { reason: 'No.' })
    refused(
      await signer(t, created.submitters[1]!, 'decline', { reason: 'No!' }),
      409,
      'submitter_already_finalized',
    )
    refused(
      await signer(t, created.submitters[1]!, 'sign', { values: { 'second signature': SIGNATURE } }),
      409,
      'submitter_already_finalized',
    )
    refused(
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }),
      410,
      'submission_not_active',
    )
    refused(
      await signer(t, created.submitters[0]!, 'decline', { reason: 'Me neither.' }),
      410,
      'submission_not_active',
    )
    assert.equal((await signer(t, created.submitters[0]!, 'open')).json().state, 'declined')
    refused(
      await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` }),
      409,
      'submission_already_finalized',
    )
    assert.equal((await eventsOf(t, created.id)).filter((e) => e.type === 'submission.declined').length, 1)
  })

  it('a signer may decline before their turn in preserved order', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const res = await signer(t, created.submitters[1]!, 'decline', { reason: 'Not my contract.' }, 'embed')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal((await submissionRow(t, created.id)).status, 'declined')
  })

  it('422 invalid_request without a reason, with a blank one, or with more than 1000 characters', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    for (const body of [
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(1001) },
      { reason: 'ok', extra: 1 },
    ]) {
      refused(await signer(t, created.submitters[0]!, 'decline', body), 422, 'invalid_request')
    }
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'pending')
  })
})
