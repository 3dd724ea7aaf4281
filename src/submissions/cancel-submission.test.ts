import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { fromPdfBody, post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import type { SubmissionStatus } from '../db/tables.ts'

interface JournalEvent {
  id: string
  type: string
  created_at: string
  data: { object: { id: string; status: string } }
}

describe('DELETE /v1/submissions/{id}', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await post(t, keys.testKey, '/v1/submissions/from_pdf', await fromPdfBody(body))
    assert.equal(res.statusCode, 201, res.body)
    return res.json().id as string
  }
  const cancel = (id: string, key = keys.testKey) =>
    t.request(key, { method: 'DELETE', url: `/v1/submissions/${id}` })
  const get = (id: string) => t.request(keys.testKey, { method: 'GET', url: `/v1/submissions/${id}` })
  const cancelledEvents = async (id: string): Promise<JournalEvent[]> => {
    const res = await t.request(keys.testKey, {
      method: 'GET',
      url: `/v1/events?submission_id=${id}&type=submission.cancelled`,
    })
    assert.equal(res.statusCode, 200)
    return res.json().data
  }
  const publishJobs = async (eventId: string) => {
    const jobs = await t.deps.db
      .selectFrom('jobs')
      .select(['kind', 'payload'])
      .where('kind', '=', 'events.publish')
      .execute()
    return jobs.filter((j) => JSON.parse(j.payload).event_id === eventId)
  }

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 the confirmation object; GET then shows the submission cancelled', async () => {
      const id = await create()
      t.clock.advance(60_000)
      const res = await cancel(id)
      assert.equal(res.statusCode, 200)
      const at = t.clock.now().toISOString()
      assert.deepEqual(res.json(), {
        id,
        object: 'submission',
        status: 'cancelled',
        cancelled: true,
        cancelled_at: at,
      })
      const after = (await get(id)).json()
      assert.equal(after.status, 'cancelled')
      assert.equal(after.cancelled_at, at)
      assert.equal(after.updated_at, at)
      assert.equal('completed_at' in after, false)
    })

    it('200 journals submission.cancelled with the cancelled submission and queues its publication', async () => {
      const id = await create()
      assert.equal((await cancel(id)).statusCode, 200)
      const events = await cancelledEvents(id)
      assert.equal(events.length, 1)
      const [event] = events
      assert.ok(event)
      assert.equal(event.data.object.id, id)
      assert.equal(event.data.object.status, 'cancelled')
      assert.equal(event.created_at, t.clock.now().toISOString())
      const jobs = await publishJobs(event.id)
      assert.equal(jobs.length, 1, 'one outbox row of kind events.publish for the event')
    })

    it('200 for a submission still created (never sent)', async () => {
      const id = await create({ send_email: false })
      assert.equal((await get(id)).json().status, 'created')
      const res = await cancel(id)
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().status, 'cancelled')
      assert.equal((await get(id)).json().status, 'cancelled')
    })
  })

  describe('errors', () => {
    it('409 submission_already_finalized when the submission is already cancelled, with no second event', async () => {
      const id = await create()
      const first = await cancel(id)
      assert.equal(first.statusCode, 200)
      t.clock.advance(5000)
      const second = await cancel(id)
      assert.equal(second.statusCode, 409)
      assert.equal(errorOf(second).code, 'submission_already_finalized')
      assert.equal(errorOf(second).type, 'invalid_request_error')
      assert.equal((await cancelledEvents(id)).length, 1)
      assert.equal((await get(id)).json().cancelled_at, first.json().cancelled_at, 'first cancellation kept')
    })

    it('409 submission_already_finalized for one of two concurrent cancellations; one event', async () => {
      const id = await create()
      const responses = await Promise.all([cancel(id), cancel(id)])
      assert.deepEqual(responses.map((r) => r.statusCode).sort(), [200, 409])
      const refused = responses.find((r) => r.statusCode === 409)
      assert.ok(refused)
      assert.equal(errorOf(refused).code, 'submission_already_finalized')
      const events = await cancelledEvents(id)
      assert.equal(events.length, 1)
      assert.equal((await publishJobs(events[0]!.id)).length, 1)
    })

    // No route completes, declines or expires a submission yet: the row is put in that status directly.
    for (const status of ['completed', 'declined', 'expired'] as const satisfies SubmissionStatus[]) {
      it(`409 submission_already_finalized when the submission is ${status}`, async () => {
        const id = await create()
        await t.deps.db.updateTable('submissions').set({ status }).where('id', '=', id).execute()
        const res = await cancel(id)
        assert.equal(res.statusCode, 409)
        assert.equal(errorOf(res).code, 'submission_already_finalized')
        assert.match(errorOf(res).message, new RegExp(status))
        assert.equal((await get(id)).json().status, status)
        assert.equal((await cancelledEvents(id)).length, 0)
      })
    }

    it('404 resource_not_found for a well-formed unknown id', async () => {
      const res = await cancel(`sub_${'Z'.repeat(24)}`)
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
    })

    for (const id of ['sub_123', `sbm_${'a'.repeat(24)}`, `sub_${'a'.repeat(23)}!`]) {
      it(`400 invalid_id for ${id}`, async () => {
        const res = await cancel(encodeURIComponent(id))
        assert.equal(res.statusCode, 400)
        assert.equal(errorOf(res).code, 'invalid_id')
      })
    }
  })

  describe('security', () => {
    it("404 resource_not_found for another account's or the live key, and the submission stays active", async () => {
      const id = await create()
      const other = await t.account('other')
      for (const key of [other.testKey, keys.liveKey]) {
        const res = await cancel(id, key)
        assert.equal(res.statusCode, 404)
        assert.equal(errorOf(res).code, 'resource_not_found')
      }
      assert.equal((await get(id)).json().status, 'sent')
      assert.equal((await cancelledEvents(id)).length, 0)
    })

    it('401 missing_api_key without a key; nothing cancelled', async () => {
      const id = await create()
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/submissions/${id}` })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'missing_api_key')
      assert.equal((await get(id)).json().status, 'sent')
    })
  })
})
