// POST/GET /v1/privacy/erasures (docs/privacy.md#erasure): one person's ended submissions purged,
// the others reported with why; the address never stored in clear.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { dumpDatabase, work } from '../../test/purge.ts'
import { createSubmission, everyTypeBody, refused } from '../../test/signing.ts'

describe('erasure of one person', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const PERSON = 'Erasmus.Forgotten@Example.EU'
  const submissionFor = async (email: string, second = 'someone.else@example.eu') => {
    const body = await everyTypeBody(['first', 'second'])
    body.submitters = [
      { role: 'first', email, name: 'Erasmus' },
      { role: 'second', email: second, name: 'Other' },
    ]
    return (await createSubmission(t, key, body)).id
  }
  const cancel = (id: string) => t.request(key, { method: 'DELETE', url: `/v1/submissions/${id}` })

  it('purges the ended submissions where the address signs, reports the active and the held, keeps only a keyed hash', async () => {
    const ended = await submissionFor('erasmus.forgotten@example.eu')
    await cancel(ended)
    const active = await submissionFor(PERSON)
    const held = await submissionFor('someone@example.eu', 'ERASMUS.forgotten@example.eu')
    await cancel(held)
    const hold = await t.request(key, {
      method: 'POST',
      url: '/v1/legal_holds',
      payload: { submission_ids: [held], reason: 'Dispute' },
    })
    assert.equal(hold.statusCode, 201)
    const unrelated = await submissionFor('nobody@example.eu')
    await cancel(unrelated)

    const created = await post(t, key, '/v1/privacy/erasures', { email: PERSON })
    assert.equal(created.statusCode, 202, created.body)
    const erasure = created.json()
    assert.match(erasure.id, /^era_/)
    assert.equal(erasure.status, 'pending')
    assert.deepEqual(
      erasure.submissions.map((s: { submission_id: string }) => s.submission_id).sort(),
      [ended, active, held].sort(),
    )
    await work(t)
    const report = (await t.request(key, { method: 'GET', url: `/v1/privacy/erasures/${erasure.id}` })).json()
    assert.equal(report.status, 'completed')
    const outcome = Object.fromEntries(
      report.submissions.map((s: { submission_id: string; outcome: string }) => [s.submission_id, s.outcome]),
    )
    assert.deepEqual(outcome, { [ended]: 'purged', [active]: 'not_ended', [held]: 'held' })
    assert.deepEqual(report.counts, { found: 3, purged: 1, not_purged: 2 })
    const purgedAt = async (id: string) =>
      (
        await t.deps.db
          .selectFrom('submissions')
          .select('purged_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).purged_at
    assert.ok(await purgedAt(ended))
    assert.equal(await purgedAt(unrelated), null, 'another person’s submission is untouched')

    const erasureRow = await t.deps.db
      .selectFrom('erasures')
      .selectAll()
      .where('id', '=', erasure.id)
      .executeTakeFirstOrThrow()
    assert.match(erasureRow.email_hmac, /^[0-9a-f]{64}$/)
    const dump = (await dumpDatabase(t)).toLowerCase()
    const erasuresOnly = dump.split('\n').find((line) => line.startsWith('erasures:'))!
    assert.ok(!erasuresOnly.includes('erasmus'), 'the erasure holds no address')
    const events = (await t.request(key, { method: 'GET', url: '/v1/events?limit=100' })).json().data
    const done = events.find((e: { type: string }) => e.type === 'erasure.completed')
    assert.equal(done.data.object.id, erasure.id)
    assert.ok(!JSON.stringify(done.data).toLowerCase().includes('erasmus'))
  })

  it('answers an address found nowhere with an empty report, and refuses what is no address', async () => {
    const created = await post(t, key, '/v1/privacy/erasures', { email: 'never.seen@example.eu' })
    assert.equal(created.statusCode, 202)
    await work(t)
    const report = (
      await t.request(key, { method: 'GET', url: `/v1/privacy/erasures/${created.json().id}` })
    ).json()
    assert.equal(report.status, 'completed')
    assert.deepEqual(report.submissions, [])
    refused(await post(t, key, '/v1/privacy/erasures', { email: 'not an address' }), 422, 'invalid_request')
    refused(await post(t, key, '/v1/privacy/erasures', {}), 422, 'invalid_request')
    const other = (await t.account('Other')).testKey
    refused(
      await t.request(other, { method: 'GET', url: `/v1/privacy/erasures/${created.json().id}` }),
      404,
      'resource_not_found',
    )
  })
})
