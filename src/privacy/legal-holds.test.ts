// Legal holds (docs/privacy.md#legal-holds): create, list, get, release; a held submission refuses
// a purge and the retention policy skips it; every act in the journal.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { createSubmission, everyTypeBody, refused } from '../../test/signing.ts'
import { applyRetention } from './apply-retention.ts'

describe('legal holds', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const cancelled = async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    assert.equal(
      (await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })).statusCode,
      200,
    )
    return created.id
  }
  const hold = (submission_ids: string[], reason = 'Case 2026-114, court order') =>
    t.request(key, { method: 'POST', url: '/v1/legal_holds', payload: { submission_ids, reason } })

  it('keeps a submission from a purge (409 legal_hold_active) until released, all journaled', async () => {
    const id = await cancelled()
    const created = await hold([id])
    assert.equal(created.statusCode, 201, created.body)
    const body = created.json()
    assert.match(body.id, /^hold_[A-Za-z0-9]{24}$/)
    assert.equal(body.status, 'active')
    assert.deepEqual(body.submission_ids, [id])
    refused(
      await t.request(key, { method: 'POST', url: `/v1/submissions/${id}/purge` }),
      409,
      'legal_hold_active',
    )

    const got = await t.request(key, { method: 'GET', url: `/v1/legal_holds/${body.id}` })
    assert.deepEqual(got.json(), body)
    const listed = await t.request(key, { method: 'GET', url: `/v1/legal_holds?submission_id=${id}` })
    assert.deepEqual(
      listed.json().data.map((h: { id: string }) => h.id),
      [body.id],
    )

    const released = await t.request(key, { method: 'DELETE', url: `/v1/legal_holds/${body.id}` })
    assert.equal(released.statusCode, 200, released.body)
    assert.equal(released.json().status, 'released')
    assert.ok(released.json().released_at)
    refused(
      await t.request(key, { method: 'DELETE', url: `/v1/legal_holds/${body.id}` }),
      409,
      'legal_hold_already_released',
    )
    assert.equal(
      (await t.request(key, { method: 'POST', url: `/v1/submissions/${id}/purge` })).statusCode,
      200,
    )

    const events = (await t.request(key, { method: 'GET', url: '/v1/events?limit=100' })).json().data
    const types = events.map((e: { type: string }) => e.type)
    assert.ok(types.includes('legal_hold.created') && types.includes('legal_hold.released'), String(types))
    const placed = events.find((e: { type: string }) => e.type === 'legal_hold.created')
    assert.deepEqual(placed.data.object.submission_ids, [id])
    assert.equal(placed.data.object.reason, 'Case 2026-114, court order')
  })

  it('wins over the retention policy, and a second hold keeps it after the first is released', async () => {
    const [held, free] = [await cancelled(), await cancelled()]
    const first = (await hold([held])).json()
    await hold([held], 'A second case')
    await t.deps.db
      .insertInto('retention_policies')
      .values({
        account_id: (
          await t.deps.db
            .selectFrom('submissions')
            .select('account_id')
            .where('id', '=', held)
            .executeTakeFirstOrThrow()
        ).account_id,
        environment: 'test',
        delete_after_days: 1,
        applies_to: JSON.stringify(['cancelled']),
        updated_at: '2026-11-22T10:00:00.000Z',
      })
      .execute()
    t.clock.advance(2 * 24 * 3600 * 1000)
    await applyRetention(t.deps)
    await t.request(key, { method: 'DELETE', url: `/v1/legal_holds/${first.id}` })
    await applyRetention(t.deps)
    const purgedAt = async (id: string) =>
      (
        await t.deps.db
          .selectFrom('submissions')
          .select('purged_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).purged_at
    assert.equal(await purgedAt(held), null, 'still held by the second hold')
    assert.ok(await purgedAt(free), 'the policy purged the other')
  })

  it('refuses ids that are no submission of this environment, naming submission_ids, and writes nothing', async () => {
    const other = (await t.account('Other')).testKey
    const theirs = await createSubmission(t, other, await everyTypeBody(['first']))
    const res = await hold([await cancelled(), theirs.id, 'sub_000000000000000000000000'])
    refused(
      res,
      422,
      'invalid_request',
      /submission_ids: sub_\w+, sub_0+ are no submissions of this environment/,
    )
    assert.equal(res.json().error.param, 'submission_ids')
    refused(await hold([]), 422, 'invalid_request')
    refused(await hold(['sub_000000000000000000000000'], ''), 422, 'invalid_request')
    const listed = await t.request(other, { method: 'GET', url: '/v1/legal_holds' })
    assert.deepEqual(listed.json().data, [], 'another account sees none of these holds')
  })
})
