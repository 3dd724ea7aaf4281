import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  guardedBody,
  jobsOf,
  mailedCode,
  refused,
  SIGNATURE,
  signer,
  submitterRow,
  verifiedSession,
} from '../../test/signing.ts'

const DAY = 24 * 60 * 60 * 1000
type Who = Created['submitters'][number]

describe('PATCH /v1/submitters/{id}', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  const patch = (id: string, body: unknown, key = keys.testKey) =>
    t.request(key, {
      method: 'PATCH',
      url: `/v1/submitters/${id}`,
      headers: { 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const get = (id: string) => t.request(keys.testKey, { method: 'GET', url: `/v1/submitters/${id}` })
  const create = async (roles = ['first', 'second'], extra: Record<string, unknown> = {}) =>
    createSubmission(t, keys.testKey, await everyTypeBody(roles, extra))
  /** Signing requests (not e-mail codes) queued for a submitter. */
  const requestsTo = async (submitterId: string) =>
    (await jobsOf(t, 'mail.send')).filter(
      (j) => j.payload.submitter_id === submitterId && !/code/.test(String(j.payload.subject)),
    )
  const updates = async (submissionId: string) =>
    (await eventsOf(t, submissionId)).filter((e) => e.type === 'submitter.updated')
  /** The same submitter with its new link: the creation's shape, for the signer helpers. */
  const relinked = (who: Who, body: { signing_url: string }): Who => ({
    ...who,
    signing_url: body.signing_url,
  })

  describe('happy', () => {
    it('200 name and phone: the same shape as GET, the same link, journaled with the field names, no mail', async () => {
      const created = await create()
      const who = created.submitters[0]!
      t.clock.advance(1000)
      const res = await patch(who.id, { name: 'Ann Smith', phone: '+33 6 00 00 00 00' })
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.deepEqual(body, (await get(who.id)).json())
      assert.deepEqual([body.name, body.phone, body.status], ['Ann Smith', '+33 6 00 00 00 00', 'pending'])
      assert.equal(body.signing_url, who.signing_url)
      assert.equal(body.updated_at, t.clock.now().toISOString())
      const [event, ...more] = await updates(created.id)
      assert.equal(more.length, 0)
      assert.equal(event!.submitter_id, who.id)
      const data = JSON.parse(event!.data)
      assert.deepEqual(data.changed, ['phone', 'name'])
      assert.equal('email' in data, false)
      assert.match(data.request_id, /^req_/)
      assert.equal((await requestsTo(who.id)).length, 1, 'only the request of the creation')
    })

    it('200 null removes the name or the phone; equal values change nothing and journal nothing', async () => {
      const created = await create()
      const who = created.submitters[0]!
      const before = await submitterRow(t, who.id)
      const same = await patch(who.id, { email: 'FIRST@example.eu', name: 'FIRST' })
      assert.equal(same.statusCode, 200, same.body)
      assert.deepEqual(await submitterRow(t, who.id), before)
      assert.equal((await updates(created.id)).length, 0)
      const cleared = (await patch(who.id, { name: null, phone: null })).json()
      assert.deepEqual([cleared.name, cleared.phone], [null, null])
      assert.deepEqual(JSON.parse((await updates(created.id))[0]!.data).changed, ['name'])
    })

    it('200 a new address whose turn it is: a new link, the old one answers like an unknown link, a new request to the new address', async () => {
      const created = await create()
      const who = created.submitters[0]!
      const res = await patch(who.id, { email: 'Ann.New@Example.EU' })
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.equal(body.email, 'ann.new@example.eu')
      assert.notEqual(body.signing_url, who.signing_url)
      const unknown = await t.app.inject({ method: 'GET', url: `/s/${'Q'.repeat(22)}/form` })
      for (const action of ['form', 'open'] as const) {
        const old = await signer(t, who, action)
        refused(old, 404, 'resource_not_found')
        assert.equal(errorOf(old).message, errorOf(unknown).message)
      }
      const fresh = await signer(t, relinked(who, body), 'form')
      assert.equal(fresh.statusCode, 200, fresh.body)
      assert.equal(fresh.json().submitter.email, 'ann.new@example.eu')
      assert.equal(
        (await signer(t, who, 'form', undefined, 'embed')).statusCode,
        200,
        'embed tokens stay valid',
      )
      const requests = await requestsTo(who.id)
      assert.equal(requests.length, 2)
      const latest = requests.find((j) => j.payload.to === 'ann.new@example.eu')
      assert.ok(latest, 'a request to the new address')
      assert.ok(String(latest.payload.text).includes(body.signing_url))
      const data = JSON.parse((await updates(created.id))[0]!.data)
      assert.deepEqual(data.email, { from: 'first@example.eu', to: 'ann.new@example.eu' })
      assert.deepEqual(data.changed, ['email'])
    })

    it('200 a new address before their turn: no mail now, the request goes to the new address when the turn comes', async () => {
      const created = await create()
      const [first, second] = created.submitters as [Who, Who]
      const body = (await patch(second.id, { email: 'bob.new@example.eu' })).json()
      assert.equal((await requestsTo(second.id)).length, 0)
      const signed = await signer(t, first, 'sign', { values: FIRST_VALUES })
      assert.equal(signed.statusCode, 200, signed.body)
      const [request, ...more] = await requestsTo(second.id)
      assert.equal(more.length, 0)
      assert.equal(request!.payload.to, 'bob.new@example.eu')
      assert.ok(String(request!.payload.text).includes(body.signing_url))
    })

    it('200 without mail when send_email is off; in random order only the changed signer is asked again', async () => {
      const quiet = await create(['first'], { send_email: false })
      assert.equal((await patch(quiet.submitters[0]!.id, { email: 'x@example.eu' })).statusCode, 200)
      assert.equal((await requestsTo(quiet.submitters[0]!.id)).length, 0)
      const random = await create(['first', 'second'], { signing_order: 'random' })
      assert.equal((await patch(random.submitters[1]!.id, { email: 'y@example.eu' })).statusCode, 200)
      assert.equal((await requestsTo(random.submitters[0]!.id)).length, 1)
      assert.equal((await requestsTo(random.submitters[1]!.id)).length, 2)
    })

    it('200 for an opened submitter, who stays opened', async () => {
      const created = await create()
      await signer(t, created.submitters[0]!, 'open')
      const res = await patch(created.submitters[0]!.id, { name: 'Ann' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().status, 'opened')
    })

    it('a new address ends the e-mail code and the sessions of the old one', async () => {
      const created = await createSubmission(t, keys.testKey, await guardedBody(['first', 'second'], [0, 1]))
      const [first, second] = created.submitters as [Who, Who]
      const { session } = await verifiedSession(t, first)
      assert.equal((await signer(t, second, 'email_2fa/send')).statusCode, 200)
      const code = await mailedCode(t, second.id)
      const firstNew = relinked(first, (await patch(first.id, { email: 'a2@example.eu' })).json())
      const secondNew = relinked(second, (await patch(second.id, { email: 'b2@example.eu' })).json())
      assert.equal((await submitterRow(t, first.id)).email_2fa_verified_at, null)
      const form = await signer(t, firstNew, 'form', undefined, 'embed', { 'paraph-signer-session': session })
      assert.deepEqual([form.json().state, form.json().documents], ['email_2fa_required', []])
      refused(await signer(t, secondNew, 'email_2fa/verify', { code }), 422, 'code_expired')
    })
  })

  describe('errors', () => {
    it('409 submitter_already_finalized once signed, declined or pre-signed', async () => {
      const created = await create(['first', 'second'], { signing_order: 'random' })
      await signer(t, created.submitters[1]!, 'sign', { values: { 'second signature': SIGNATURE } })
      refused(await patch(created.submitters[1]!.id, { name: 'X' }), 409, 'submitter_already_finalized')
      const declined = await create()
      await signer(t, declined.submitters[0]!, 'decline', { reason: 'No.' })
      refused(
        await patch(declined.submitters[0]!.id, { email: 'z@example.eu' }),
        409,
        'submitter_already_finalized',
      )
      assert.equal((await updates(created.id)).length + (await updates(declined.id)).length, 0)
      const body = await everyTypeBody(['first', 'witness'])
      body.submitters[1] = {
        ...body.submitters[1]!,
        completed: true,
        fields: [{ name: 'witness signature', default_value: SIGNATURE }],
      } as never
      const preSigned = await createSubmission(t, keys.testKey, body)
      assert.equal((await submitterRow(t, preSigned.submitters[1]!.id)).status, 'pre_signed')
      refused(
        await patch(preSigned.submitters[1]!.id, { phone: '+1 555 0100' }),
        409,
        'submitter_already_finalized',
      )
    })

    it('409 submission_already_finalized for a pending submitter of an ended submission', async () => {
      const cancelled = await create()
      await t.request(keys.testKey, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
      refused(
        await patch(cancelled.submitters[0]!.id, { name: 'X' }),
        409,
        'submission_already_finalized',
        /cancelled/,
      )
      const declined = await create()
      await signer(t, declined.submitters[0]!, 'decline', { reason: 'No.' })
      refused(
        await patch(declined.submitters[1]!.id, { name: 'X' }),
        409,
        'submission_already_finalized',
        /declined/,
      )
      const expiring = await create(['first'], {
        expires_at: new Date(t.clock.now().getTime() + DAY).toISOString(),
      })
      t.clock.advance(DAY)
      refused(
        await patch(expiring.submitters[0]!.id, { name: 'X' }),
        409,
        'submission_already_finalized',
        /expired/,
      )
    })

    it('422 invalid_request for an empty body, an unknown key or a bad value; nothing changes', async () => {
      const created = await create()
      const who = created.submitters[0]!
      const before = await submitterRow(t, who.id)
      for (const body of [
        {},
        { status: 'signed' },
        { id: 'sbm_AAAAAAAAAAAAAAAAAAAAAAAA' },
        { name: 'X', status: 'signed' },
        { name: 'X', completed_at: '2026-11-22T10:00:00.000Z' },
        { name: 'X', account_id: 'acct_x' },
        { name: 'X', constructor: {} },
        '{"name":"X","__proto__":{"status":"signed"}}',
        { email: null },
        { email: 'not an address' },
        { email: `${'a'.repeat(310)}@example.eu` },
        { name: 'x'.repeat(201) },
        { phone: 'call me' },
        { signing_url: 'https://evil.example/s/x' },
      ]) {
        refused(await patch(who.id, body), 422, 'invalid_request')
      }
      assert.deepEqual(await submitterRow(t, who.id), before)
      assert.equal((await updates(created.id)).length, 0)
      assert.match(errorOf(await patch(who.id, {})).message, /at least 1/)
    })

    it('404 resource_not_found for an unknown id; 400 invalid_id for a malformed one; 401 without a key', async () => {
      refused(await patch(`sbm_${'Z'.repeat(24)}`, { name: 'X' }), 404, 'resource_not_found')
      refused(await patch('sbm_1', { name: 'X' }), 400, 'invalid_id')
      const created = await create(['first'])
      const anonymous = await t.app.inject({
        method: 'PATCH',
        url: `/v1/submitters/${created.submitters[0]!.id}`,
        headers: { 'content-type': 'application/json' },
        payload: '{"name":"X"}',
      })
      refused(anonymous, 401, 'missing_api_key')
    })
  })

  describe('security', () => {
    it("404 resource_not_found for another account's or the live key, identical to an unknown id, nothing changed", async () => {
      const created = await create()
      const who = created.submitters[0]!
      const before = await submitterRow(t, who.id)
      const other = await t.account('other')
      const unknownId = `sbm_${'Z'.repeat(24)}`
      for (const key of [other.testKey, other.liveKey, keys.liveKey]) {
        const foreign = await patch(who.id, { email: 'mallory@example.eu' }, key)
        const unknown = await patch(unknownId, { email: 'mallory@example.eu' }, key)
        refused(foreign, 404, 'resource_not_found')
        assert.equal(foreign.body.split(who.id).join('<id>'), unknown.body.split(unknownId).join('<id>'))
      }
      assert.deepEqual(await submitterRow(t, who.id), before)
      assert.equal((await updates(created.id)).length, 0)
    })

    it('submitter.updated is journal-only: listed by GET /v1/events, never a webhook event type', async () => {
      const { SUBMISSION_EVENT_TYPES, JOURNAL_ONLY_EVENT_TYPES } = await import('../events/event-types.ts')
      assert.ok((JOURNAL_ONLY_EVENT_TYPES as readonly string[]).includes('submitter.updated'))
      assert.ok(!(SUBMISSION_EVENT_TYPES as readonly string[]).includes('submitter.updated'))
      const created = await create()
      await patch(created.submitters[0]!.id, { name: 'Listed' })
      const res = await t.request(keys.testKey, {
        method: 'GET',
        url: `/v1/events?type=submitter.updated&submission_id=${created.id}`,
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().data.length, 1)
    })
  })
})
