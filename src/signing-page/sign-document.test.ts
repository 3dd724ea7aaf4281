import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { dataUrl, ihdr, pngOf, strokePng } from '../../test/fixtures/png.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  eventsOf,
  everyTypeBody,
  FIRST_VALUES,
  jobsOf,
  refused,
  SIGNATURE,
  signer,
  submissionRow,
  submitterRow,
} from '../../test/signing.ts'
import { finalizeSubmissionDeclaration } from '../lifecycle/submission-jobs.ts'
import { mailJob } from '../mail/mail-job.ts'

describe('POST /s/{slug}/sign and /embed/{jwt}/sign', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  describe('happy', () => {
    it('two signers in preserved order: every field type, partially_signed, next mail, then the completion fence', async () => {
      const created = await createSubmission(t, key, await everyTypeBody())
      const [first, second] = created.submitters as [never, never]
      const res = await signer(t, first, 'sign', { values: FIRST_VALUES })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().state, 'signed')
      assert.equal(res.json().submitter.status, 'signed')
      const row = await submitterRow(t, created.submitters[0]!.id)
      assert.equal(row.status, 'signed')
      assert.equal(row.signed_ip, '203.0.113.7')
      assert.equal(row.signed_user_agent, 'SignerBrowser/1.0')
      assert.equal((await submissionRow(t, created.id)).status, 'partially_signed')
      const mails = await jobsOf(t, mailJob.kind)
      assert.deepEqual(
        mails.filter((m) => m.payload.submission_id === created.id).map((m) => m.payload.to),
        ['first@example.eu', 'second@example.eu'],
        'the second signer is asked once the first has signed',
      )
      const done = await signer(t, second, 'sign', { values: { 'second signature': SIGNATURE } })
      assert.equal(done.statusCode, 200, done.body)
      const submission = await submissionRow(t, created.id)
      assert.equal(submission.status, 'partially_signed', 'completed only once the final PDF exists')
      assert.ok(submission.all_signed_at)
      const jobs = (await jobsOf(t, finalizeSubmissionDeclaration.kind)).filter(
        (j) => j.payload.submission_id === created.id,
      )
      assert.equal(jobs.length, 1)
      const types = (await eventsOf(t, created.id)).map((e) => e.type)
      assert.deepEqual(types, [
        'submission.created',
        'submission.sent',
        'submitter.signed',
        'submission.partially_signed',
        'submitter.signed',
      ])
      const cancel = await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      refused(cancel, 409, 'submission_already_finalized', /final PDF is being made/)
    })

    it('records the actor of each act in the journal, and the same through the embed URL', async () => {
      const created = await createSubmission(t, key, await everyTypeBody(['first']))
      const res = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }, 'embed')
      assert.equal(res.statusCode, 200, res.body)
      const signed = (await eventsOf(t, created.id)).find((e) => e.type === 'submitter.signed')!
      assert.equal(signed.submitter_id, created.submitters[0]!.id)
      assert.equal(signed.actor_ip, '203.0.113.7')
      assert.equal(signed.actor_user_agent, 'SignerBrowser/1.0')
      assert.equal(JSON.parse(signed.data).via, 'embed')
    })

    it('GET /v1/submitters/{id} shows the signed values, images as URLs serving the very PNG', async () => {
      const created = await createSubmission(t, key, await everyTypeBody(['first']))
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      const res = await t.request(key, { method: 'GET', url: `/v1/submitters/${created.submitters[0]!.id}` })
      const body = res.json()
      assert.equal(body.status, 'signed')
      assert.ok(body.signed_at)
      const { Signature, Initials, ...plain } = body.values
      assert.deepEqual(plain, {
        Date: '2026-11-23',
        Name: 'Łukasz Żółć',
        Amount: 1250.5,
        Agree: true,
        Plan: 'pro',
        Country: 'DE',
      })
      const file = await t.app.inject({ method: 'GET', url: new URL(Signature).pathname })
      assert.equal(file.statusCode, 200)
      assert.equal(file.rawPayload.toString('base64'), SIGNATURE.split(',')[1])
      assert.match(Initials, /\/files\//)
    })

    for (const date of ['1900-01-01', '2200-12-31']) {
      it(`200 for the date ${date}, the edge of the accepted range (issue #20)`, async () => {
        const created = await createSubmission(t, key, await everyTypeBody(['first']))
        const res = await signer(t, created.submitters[0]!, 'sign', {
          values: { ...FIRST_VALUES, Date: date },
        })
        assert.equal(res.statusCode, 200, res.body)
        assert.equal(JSON.parse((await submitterRow(t, created.submitters[0]!.id)).values).Date, date)
      })
    }

    it('random order: two last signers at once complete the signing exactly once', async () => {
      const created = await createSubmission(
        t,
        key,
        await everyTypeBody(['first', 'second'], { signing_order: 'random' }),
      )
      const [a, b] = await Promise.all([
        signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }),
        signer(t, created.submitters[1]!, 'sign', { values: { 'second signature': SIGNATURE } }),
      ])
      assert.deepEqual([a.statusCode, b.statusCode], [200, 200], `${a.body} ${b.body}`)
      const jobs = (await jobsOf(t, finalizeSubmissionDeclaration.kind)).filter(
        (j) => j.payload.submission_id === created.id,
      )
      assert.equal(jobs.length, 1)
      const types = (await eventsOf(t, created.id)).map((e) => e.type)
      assert.equal(types.filter((x) => x === 'submitter.signed').length, 2)
      assert.equal(types.filter((x) => x === 'submission.partially_signed').length, 1)
    })
  })

  describe('errors', () => {
    const fresh = async (roles = ['first']) => createSubmission(t, key, await everyTypeBody(roles))
    const unchanged = async (created: { id: string; submitters: Array<{ id: string }> }) => {
      const row = await submitterRow(t, created.submitters[0]!.id)
      assert.equal(row.status, 'pending')
      assert.equal(row.values, '{}')
      assert.equal((await eventsOf(t, created.id)).filter((e) => e.type.startsWith('submitter.')).length, 0)
    }

    it('409 not_your_turn for the second signer in preserved order', async () => {
      const created = await fresh(['first', 'second'])
      refused(
        await signer(t, created.submitters[1]!, 'sign', { values: { 'second signature': SIGNATURE } }),
        409,
        'not_your_turn',
      )
    })

    it('422 missing_required_fields naming every missing field; a required checkbox must be checked', async () => {
      const created = await fresh()
      const { Signature: _s, Date: _d, ...rest } = FIRST_VALUES
      const res = await signer(t, created.submitters[0]!, 'sign', { values: { ...rest, Agree: false } })
      refused(
        res,
        422,
        'missing_required_fields',
        /^Required fields without a value: "Signature", "Date", "Agree"\.$/,
      )
      await unchanged(created)
    })

    for (const [label, values, pattern] of [
      [
        'an unknown field',
        { Nope: 'x' },
        /^values\.Nope: no such field \(your fields: "Signature", "Initials"/,
      ],
      [
        'a date that is not in the calendar',
        { Date: '2026-02-30' },
        /values\.Date: must be a date as YYYY-MM-DD/,
      ],
      [
        'the year 0',
        { Date: '0000-01-01' },
        /^values\.Date: must be a date from 1900-01-01 to 2200-12-31 \(got "0000-01-01"\)\.$/,
      ],
      [
        'the day before 1900',
        { Date: '1899-12-31' },
        /values\.Date: must be a date from 1900-01-01 to 2200-12-31/,
      ],
      [
        'the day after 2200',
        { Date: '2201-01-01' },
        /values\.Date: must be a date from 1900-01-01 to 2200-12-31/,
      ],
      ['a radio value outside its options', { Plan: 'gold' }, /values\.Plan: must be one of "basic", "pro"/],
      ['a select value outside its options', { Country: 'XX' }, /values\.Country: must be one of/],
      [
        'text over 1000 characters',
        { Name: 'x'.repeat(1001) },
        /values\.Name: must be a string of at most 1000/,
      ],
      ['1 MB of text', { Name: 'x'.repeat(1024 * 1024) }, /values\.Name: must be a string of at most 1000/],
      ['a number given as text', { Amount: '12' }, /values\.Amount: must be a JSON number/],
      ['a checkbox given as text', { Agree: 'yes' }, /values\.Agree: must be true or false/],
      [
        'a JPEG as signature',
        { Signature: 'data:image/jpeg;base64,/9j/4AAQ' },
        /values\.Signature: must be a PNG data URL/,
      ],
      [
        'a PNG over 512 KB',
        { Signature: dataUrl(Buffer.concat([strokePng(2, 2), Buffer.alloc(600 * 1024)])) },
        /at most 524288 bytes/,
      ],
      [
        'a PNG of 5000 × 10 px',
        { Signature: dataUrl(pngOf(ihdr(5000, 10), Buffer.alloc(10 * (1 + 5000 * 4)))) },
        /the image is 5000 × 10 pixels/,
      ],
      [
        'a PNG that lies about its size',
        { Signature: dataUrl(pngOf(ihdr(1, 1), Buffer.alloc(10_000_000))) },
        /the image lies about its size/,
      ],
      [
        'a truncated PNG',
        { Signature: dataUrl(strokePng(20, 20).subarray(0, 60)) },
        /the image is a truncated PNG/,
      ],
    ] as const) {
      it(`422 invalid_field_value for ${label}, nothing stored`, async () => {
        const created = await fresh()
        const res = await signer(t, created.submitters[0]!, 'sign', {
          values: { ...FIRST_VALUES, ...values },
        })
        refused(res, 422, 'invalid_field_value', pattern)
        await unchanged(created)
      })
    }

    it("422 invalid_field_value for another signer's field", async () => {
      const created = await fresh(['first', 'second'])
      const res = await signer(t, created.submitters[0]!, 'sign', {
        values: { ...FIRST_VALUES, 'second signature': SIGNATURE },
      })
      refused(res, 422, 'invalid_field_value', /for the "second" signer, not for you/)
      await unchanged(created)
    })

    it('422 invalid_request for a "__proto__" key in values, and for values that are not an object', async () => {
      const created = await fresh()
      const raw = await t.app.inject({
        method: 'POST',
        url: `${new URL(created.submitters[0]!.signing_url).pathname}/sign`,
        headers: { 'content-type': 'application/json' },
        payload: '{"values":{"__proto__":{"polluted":true},"Name":"x"}}',
      })
      refused(raw, 422, 'invalid_request', /^values\.__proto__: the key "__proto__" is not accepted\.$/)
      refused(
        await signer(t, created.submitters[0]!, 'sign', { values: [1] }),
        422,
        'invalid_request',
        /^values: must be an object/,
      )
      refused(
        await signer(t, created.submitters[0]!, 'sign', {}),
        422,
        'invalid_request',
        /^values: is required/,
      )
      assert.equal(({} as { polluted?: boolean }).polluted, undefined)
      await unchanged(created)
    })

    it('409 submitter_already_finalized on a second sign; two signs at once give one 200 and one 409', async () => {
      const created = await fresh()
      const [a, b] = await Promise.all([
        signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }),
        signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }, 'embed'),
      ])
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 409], `${a.body} ${b.body}`)
      refused(a.statusCode === 409 ? a : b, 409, 'submitter_already_finalized')
      const signed = (await eventsOf(t, created.id)).filter((e) => e.type === 'submitter.signed')
      assert.equal(signed.length, 1)
      refused(
        await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }),
        409,
        'submitter_already_finalized',
      )
      refused(
        await signer(t, created.submitters[0]!, 'decline', { reason: 'changed my mind' }),
        409,
        'submitter_already_finalized',
      )
    })

    it('410 submission_not_active once cancelled, and after expires_at even before the sweep', async () => {
      const cancelled = await fresh()
      await t.request(key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
      refused(
        await signer(t, cancelled.submitters[0]!, 'sign', { values: FIRST_VALUES }),
        410,
        'submission_not_active',
        /cancelled/,
      )
      const expiring = await createSubmission(
        t,
        key,
        await everyTypeBody(['first'], { expires_at: new Date(t.clock.epochMs() + 60_000).toISOString() }),
      )
      t.clock.advance(61_000)
      try {
        const res = await signer(t, expiring.submitters[0]!, 'sign', { values: FIRST_VALUES })
        refused(res, 410, 'submission_not_active', /has expired/)
        assert.equal((await submissionRow(t, expiring.id)).status, 'sent', 'the sweep has not run')
      } finally {
        t.clock.advance(-61_000)
      }
    })

    it('404 for an unknown slug, 401 for a forged embed token', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/s/${'x'.repeat(22)}/sign`,
        payload: { values: {} },
      })
      refused(res, 404, 'resource_not_found')
      const forged = await t.app.inject({ method: 'POST', url: '/embed/a.b.c/sign', payload: { values: {} } })
      refused(forged, 401, 'invalid_signing_token')
    })
  })
})
