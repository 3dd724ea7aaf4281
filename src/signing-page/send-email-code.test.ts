import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  guardedBody,
  jobsOf,
  mailedCode,
  refused,
  signer,
  verifiedSession,
} from '../../test/signing.ts'
import { emailCodeJob } from './email-code-job.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND

describe('POST /s/{slug}/email_2fa/send and /embed/{jwt}/email_2fa/send', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const codeMails = async (submitterId: string) =>
    (await jobsOf(t, emailCodeJob.kind)).filter((j) => j.payload.submitter_id === submitterId)

  describe('happy', () => {
    for (const via of ['link', 'embed'] as const) {
      it(`200 by ${via}: a 6-digit code mailed through the outbox, which holds no code, stored as its HMAC`, async () => {
        const created = await createSubmission(t, key, await guardedBody(['first'], [0]))
        const who = created.submitters[0]!
        const res = await signer(t, who, 'email_2fa/send', undefined, via, {
          'accept-language': 'fr-CH, fr;q=0.9',
        })
        assert.equal(res.statusCode, 200, res.body)
        const now = t.clock.now().getTime()
        assert.deepEqual(res.json(), {
          object: 'email_2fa_code',
          sent_to: 'first@example.eu',
          expires_at: new Date(now + 10 * MINUTE).toISOString(),
          resend_at: new Date(now + 30 * SECOND).toISOString(),
        })
        const [mail, ...others] = await codeMails(who.id)
        assert.equal(others.length, 0)
        assert.equal(mail!.state, 'pending')
        assert.deepEqual(mail!.payload, {
          kind: 'email_code',
          to: 'first@example.eu',
          to_name: 'FIRST',
          language: 'fr',
          document_name: 'Contract',
          sender_name: 'Test account',
          submission_id: created.id,
          submitter_id: who.id,
          account_id: mail!.payload.account_id,
          environment: 'test',
        })
        const code = await mailedCode(t, who.id)
        assert.match(code, /^[0-9]{6}$/)
        const row = await t.deps.db
          .selectFrom('email_2fa_codes')
          .selectAll()
          .where('submitter_id', '=', who.id)
          .executeTakeFirstOrThrow()
        assert.match(row.code_hash, /^[0-9a-f]{64}$/)
        assert.ok(!JSON.stringify(row).includes(code), 'the code itself is never stored')
        assert.ok(!JSON.stringify(mail).includes(code), 'nor is it in the outbox')
        assert.deepEqual([row.sent_to, row.wrong_tries, row.used_at], ['first@example.eu', 0, null])
        assert.deepEqual(JSON.parse(row.recent_sends), [new Date(now).toISOString()])
      })
    }

    it('200 even when the signer gets no signing e-mail, and before their turn in preserved order', async () => {
      const body = await guardedBody(['first', 'second'], [1], { send_email: false })
      const created = await createSubmission(t, key, body)
      assert.equal((await signer(t, created.submitters[1]!, 'form')).json().state, 'email_2fa_required')
      const res = await signer(t, created.submitters[1]!, 'email_2fa/send')
      assert.equal(res.statusCode, 200, res.body)
      assert.equal((await codeMails(created.submitters[1]!.id)).length, 1)
    })

    it('200 again after 30 s with a new code: the earlier code no longer works', async () => {
      const created = await createSubmission(t, key, await guardedBody(['first'], [0]))
      const who = created.submitters[0]!
      await signer(t, who, 'email_2fa/send')
      const first = await mailedCode(t, who.id)
      t.clock.advance(30 * SECOND)
      assert.equal((await signer(t, who, 'email_2fa/send', undefined, 'embed')).statusCode, 200)
      assert.equal((await codeMails(who.id)).length, 2)
      const second = await mailedCode(t, who.id)
      if (first !== second) {
        refused(await signer(t, who, 'email_2fa/verify', { code: first }), 422, 'invalid_code')
      }
      assert.equal((await signer(t, who, 'email_2fa/verify', { code: second })).statusCode, 200)
    })
  })

  describe('errors', () => {
    it('429 code_resend_too_soon within 30 s, with Retry-After in seconds, and no second mail', async () => {
      const created = await createSubmission(t, key, await guardedBody(['first'], [0]))
      const who = created.submitters[0]!
      await signer(t, who, 'email_2fa/send')
      t.clock.advance(10 * SECOND + 200)
      const res = await signer(t, who, 'email_2fa/send', undefined, 'embed')
      refused(res, 429, 'code_resend_too_soon', /less than 30 seconds/)
      assert.equal(res.headers['retry-after'], '20')
      t.clock.advance(19 * SECOND)
      assert.equal((await signer(t, who, 'email_2fa/send')).headers['retry-after'], '1')
      assert.equal((await codeMails(who.id)).length, 1)
    })

    it('429 code_send_limit_reached for an 11th code within 24 hours, with Retry-After; the 24 hours slide', async () => {
      const created = await createSubmission(t, key, await guardedBody(['first'], [0]))
      const who = created.submitters[0]!
      const start = t.clock.now().getTime()
      for (let i = 0; i < 10; i++) {
        assert.equal((await signer(t, who, 'email_2fa/send')).statusCode, 200, `code ${i + 1}`)
        t.clock.advance(30 * SECOND)
      }
      const refusedAt = t.clock.now().getTime()
      const res = await signer(t, who, 'email_2fa/send', undefined, 'embed')
      refused(
        res,
        429,
        'code_send_limit_reached',
        /^10 codes were sent to you in the last 24 hours; ask again in 1435 min\.$/,
      )
      const wait = (start + 24 * 60 * MINUTE - refusedAt) / 1000
      assert.equal(res.headers['retry-after'], String(wait))
      assert.equal((await codeMails(who.id)).length, 10, 'no 11th mail')
      t.clock.advance(wait * SECOND - 1)
      refused(await signer(t, who, 'email_2fa/send'), 429, 'code_send_limit_reached')
      t.clock.advance(1)
      assert.equal((await signer(t, who, 'email_2fa/send')).statusCode, 200, 'the first code is 24 hours old')
      t.clock.advance(15 * SECOND)
      const early = await signer(t, who, 'email_2fa/send')
      refused(early, 429, 'code_send_limit_reached', /ask again in 1 min/)
      assert.equal(early.headers['retry-after'], '15', 'the second code turns 24 hours old in 15 s')
      assert.equal((await codeMails(who.id)).length, 11)
    })

    it('409 email_2fa_not_required for a signer created without require_email_2fa', async () => {
      const created = await createSubmission(t, key, await everyTypeBody(['first']))
      for (const via of ['link', 'embed'] as const) {
        refused(
          await signer(t, created.submitters[0]!, 'email_2fa/send', undefined, via),
          409,
          'email_2fa_not_required',
        )
      }
      assert.equal((await codeMails(created.submitters[0]!.id)).length, 0)
    })

    it('410 submission_not_active once the submission is cancelled; 409 submitter_already_finalized once signed', async () => {
      const cancelled = await createSubmission(t, key, await guardedBody(['first'], [0]))
      await t.request(key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
      refused(await signer(t, cancelled.submitters[0]!, 'email_2fa/send'), 410, 'submission_not_active')

      const signed = await createSubmission(t, key, await guardedBody(['first', 'second'], [0]))
      const { cookie } = await verifiedSession(t, signed.submitters[0]!)
      const sign = await signer(t, signed.submitters[0]!, 'sign', { values: FIRST_VALUES }, 'link', {
        cookie,
      })
      assert.equal(sign.statusCode, 200, sign.body)
      t.clock.advance(30 * SECOND)
      refused(await signer(t, signed.submitters[0]!, 'email_2fa/send'), 409, 'submitter_already_finalized')
    })

    it('404 resource_not_found for an unknown slug, 401 invalid_signing_token for a bad token', async () => {
      const unknown = await t.app.inject({ method: 'POST', url: `/s/${'x'.repeat(22)}/email_2fa/send` })
      refused(unknown, 404, 'resource_not_found')
      const forged = await t.app.inject({ method: 'POST', url: '/embed/not.a.token/email_2fa/send' })
      refused(forged, 401, 'invalid_signing_token')
    })
  })
})
