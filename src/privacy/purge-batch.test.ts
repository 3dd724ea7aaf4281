// Purges in batches (docs/privacy.md#purge, purge.ts): the retention policy and erasures purge up to
// 50 submissions per transaction. A batch leaves nothing of any of its people, keeps what it must
// not touch, answers one outcome per submission, and two workers on overlapping batches purge each
// submission once.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { ENGINE, startTestApp, type TestApp } from '../../test/harness.ts'
import { blobRoot, completedFor, dumpDatabase, filesUnder, found, personOf, work } from '../../test/purge.ts'
import { createSubmission, everyTypeBody, submissionRow } from '../../test/signing.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { applyRetention } from './apply-retention.ts'
import { purgeSubmissions } from './purge.ts'

const DAY = 24 * 3600 * 1000

describe('purge in batches', () => {
  let t: TestApp
  let key: string
  let scope: { accountId: string; environment: 'test' }
  let receiver: WebhookReceiver
  before(async () => {
    receiver = await WebhookReceiver.start()
    t = await startTestApp({ env: { ALLOW_PRIVATE_NETWORK_URLS: 'true' } })
    const account = await t.account()
    key = account.testKey
    scope = { accountId: account.accountId, environment: 'test' }
    const hook = await t.request(key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: receiver.url(), events: ['submission.completed', 'submission.purged'] },
    })
    assert.equal(hook.statusCode, 201, hook.body)
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
    await receiver.close()
  })

  const cancelled = async () => {
    const id = (await createSubmission(t, key, await everyTypeBody(['first']))).id
    assert.equal((await t.request(key, { method: 'DELETE', url: `/v1/submissions/${id}` })).statusCode, 200)
    return id
  }
  const purgedEvents = async (id: string) =>
    (
      await t.deps.db
        .selectFrom('events')
        .select('id')
        .where('submission_id', '=', id)
        .where('type', '=', 'submission.purged')
        .execute()
    ).length

  it('leaves nothing of any person of the batch, one event and one webhook each, and keeps the held one whole', async () => {
    const people = ['a', 'b', 'c'].map((tag) => personOf(`batch${ENGINE}${tag}`))
    const ids: string[] = []
    for (const person of people) ids.push(await completedFor(t, key, person))
    const keptPerson = personOf(`batch${ENGINE}held`)
    const kept = await completedFor(t, key, keptPerson)
    const hold = await t.request(key, {
      method: 'POST',
      url: '/v1/legal_holds',
      payload: { submission_ids: [kept], reason: 'Dispute' },
    })
    assert.equal(hold.statusCode, 201, hold.body)
    const policy = await t.request(key, {
      method: 'PUT',
      url: '/v1/retention_policy',
      payload: { delete_after_days: 1, applies_to: ['completed'] },
    })
    assert.equal(policy.statusCode, 200, policy.body)
    t.clock.advance(DAY + 1000)
    const before = await dumpDatabase(t)
    for (const person of [...people, keptPerson]) {
      assert.ok(found({ email: person.email }, before).length > 0, `${person.email} is stored before`)
    }

    assert.equal(await applyRetention(t.deps, Number.POSITIVE_INFINITY), 3, 'the three, in one batch')
    await work(t)

    const files = await filesUnder(blobRoot(t))
    const dump = await dumpDatabase(t)
    for (const [i, person] of people.entries()) {
      assert.deepEqual(found(person, dump, files), [], `nothing of person ${i} is left`)
      assert.equal(await purgedEvents(ids[i]!), 1, 'journaled once')
      assert.ok((await submissionRow(t, ids[i]!))!.purged_at)
      assert.deepEqual(
        [...files.keys()].filter((f) => f.includes(ids[i]!)),
        [],
        'its files are gone',
      )
    }
    assert.ok(found({ email: keptPerson.email }, dump).length > 0, 'the held signer keeps their address')
    assert.ok(
      [...files.keys()].some((f) => f.includes(kept)),
      'the held submission keeps its files',
    )
    assert.equal((await submissionRow(t, kept))!.purged_at, null)

    const purgedHooks = receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.type === 'submission.purged')
    assert.deepEqual(purgedHooks.map((b) => b.data.object.id).sort(), [...ids].sort(), 'one webhook each')
    for (const body of purgedHooks) {
      assert.equal(body.data.cause, 'policy')
      assert.ok(body.data.object.purged_at)
      assert.equal(body.data.object.submitters[0].email, null)
    }
    await t.request(key, { method: 'PUT', url: '/v1/retention_policy', payload: { delete_after_days: null } })
  })

  it('answers one outcome per submission in order: purged, already purged, refused with the reason', async () => {
    const first = await cancelled()
    const second = await cancelled()
    const active = (await createSubmission(t, key, await everyTypeBody(['first']))).id
    const held = await cancelled()
    assert.equal(
      (
        await t.request(key, {
          method: 'POST',
          url: '/v1/legal_holds',
          payload: { submission_ids: [held], reason: 'Audit' },
        })
      ).statusCode,
      201,
    )
    await purgeSubmissions(t.deps, scope, [first], 'request')
    const outcomes = await purgeSubmissions(
      t.deps,
      scope,
      [first, 'sub_missing000000000000000000', active, held, second],
      'policy',
    )
    assert.deepEqual(
      outcomes.map((o) => [o.id, o.outcome === 'refused' ? o.error.code : o.outcome]),
      [
        [first, 'already_purged'],
        ['sub_missing000000000000000000', 'resource_not_found'],
        [active, 'submission_not_finalized'],
        [held, 'legal_hold_active'],
        [second, 'purged'],
      ],
    )
    assert.equal((await submissionRow(t, active))!.purged_at, null, 'the active one is untouched')
    assert.equal((await submissionRow(t, held))!.purged_at, null, 'the held one is untouched')
    assert.equal(await purgedEvents(first), 1, 'purged once, not again')
  })

  it('purges each submission once when two workers take overlapping batches in opposite orders', async () => {
    const ids: string[] = []
    for (let i = 0; i < 8; i++) ids.push(await cancelled())
    const [one, two] = await Promise.all([
      purgeSubmissions(t.deps, scope, ids, 'policy'),
      purgeSubmissions(t.deps, scope, [...ids].reverse(), 'policy'),
    ])
    const purgedBy = (outcomes: typeof one) => outcomes.filter((o) => o.outcome === 'purged').map((o) => o.id)
    assert.deepEqual(
      [...purgedBy(one), ...purgedBy(two)].sort(),
      [...ids].sort(),
      'every one purged by exactly one of them',
    )
    for (const outcome of [...one, ...two]) assert.notEqual(outcome.outcome, 'refused')
    for (const id of ids) assert.equal(await purgedEvents(id), 1)
  })
})
