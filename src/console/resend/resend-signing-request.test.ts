// POST /console/api/submitters/{id}/resend (docs/console.md): the signing request mailed again, read
// from a real SMTP server after the worker ran; the refusals; the scope; CSRF; and the limits,
// counted in the database and crossed by moving the app's clock.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import { createTemplateFor, post } from '../../../test/documents.ts'
import { errorOf } from '../../../test/harness.ts'
import { type MailTestApp, startMailApp } from '../../../test/mail.ts'
import { type Created, refused, SIGNATURE, signer } from '../../../test/signing.ts'

const MINUTE = 60_000

describe('resend a signing request (POST /console/api/submitters/:id/resend)', () => {
  let m: MailTestApp
  let accountId: string
  let templateId: string
  let admin: ConsoleClient
  before(async () => {
    m = await startMailApp()
    accountId = (await m.t.request(m.key, { method: 'GET', url: '/v1/health' })).json().account_id
    templateId = await createTemplateFor(m.t, m.key)
    admin = await signedInMember(m.t, accountId)
  })
  after(() => m.close())

  /** A two-signer submission of the template, `first` then `second` (preserved order by default). */
  async function send(extra: Record<string, unknown> = {}): Promise<Created> {
    const res = await post(m.t, m.key, '/v1/submissions', {
      template_id: templateId,
      submitters: [
        { role: 'first', email: 'first@example.eu', name: 'First' },
        { role: 'second', email: 'second@example.eu', name: 'Second' },
      ],
      message: { subject: 'Please sign {{document.name}}', body: 'Hello {{submitter.name}}' },
      ...extra,
    })
    assert.equal(res.statusCode, 201, res.body)
    await m.work()
    return res.json()
  }
  const resend = (client: ConsoleClient, submitterId: string, csrf = true) =>
    client.request({ method: 'POST', url: `/console/api/submitters/${submitterId}/resend` }, { csrf })
  const mailsTo = (created: Created, index: number) =>
    m.smtp.received.filter((mail) => mail.text.includes(created.submitters[index]!.signing_url))

  describe('happy', () => {
    it('202 queues the same signing request again: a second mail with the same working link', async () => {
      const created = await send()
      const first = created.submitters[0]!
      assert.equal(mailsTo(created, 0).length, 1)
      const res = await resend(admin, first.id)
      assert.equal(res.statusCode, 202, res.body)
      assert.deepEqual(res.json(), {
        object: 'signing_request',
        submitter_id: first.id,
        submission_id: created.id,
        email: 'first@example.eu',
        queued_at: m.t.clock.now().toISOString(),
      })
      await m.work()
      const mails = mailsTo(created, 0)
      assert.equal(mails.length, 2, 'the original and the resent request')
      assert.deepEqual(mails[1]!.envelope.to, ['first@example.eu'])
      assert.equal(mails[1]!.subject, mails[0]!.subject)
      assert.equal(mails[1]!.subject, 'Please sign NDA')
      assert.equal(mails[1]!.text, mails[0]!.text)
      const link = new URL(first.signing_url)
      const page = await m.t.app.inject({
        method: 'GET',
        url: link.pathname,
        headers: { accept: 'text/html' },
      })
      assert.equal(page.statusCode, 200, 'the link in the resent mail opens the signing page')
      assert.match(String(page.headers['content-type']), /text\/html/)
    })

    it('202 for the second signer once the first signed (preserved order), and for anyone under random order', async () => {
      const created = await send()
      const signed = await signer(m.t, created.submitters[0]!, 'sign', {
        values: { 'First signature': SIGNATURE },
      })
      assert.equal(signed.statusCode, 200, signed.body)
      assert.equal((await resend(admin, created.submitters[1]!.id)).statusCode, 202)
      const random = await send({ signing_order: 'random' })
      assert.equal((await resend(admin, random.submitters[1]!.id)).statusCode, 202)
      await m.work()
      assert.equal(mailsTo(created, 1).length, 2)
      assert.equal(mailsTo(random, 1).length, 2)
    })

    it('an editor may resend too', async () => {
      const editor = await signedInMember(m.t, accountId, { role: 'editor' })
      const created = await send()
      assert.equal((await resend(editor, created.submitters[0]!.id)).statusCode, 202)
    })
  })

  describe('errors', () => {
    it('409 submitter_already_finalized for a signer who signed', async () => {
      const created = await send()
      const signed = await signer(m.t, created.submitters[0]!, 'sign', {
        values: { 'First signature': SIGNATURE },
      })
      assert.equal(signed.statusCode, 200, signed.body)
      refused(await resend(admin, created.submitters[0]!.id), 409, 'submitter_already_finalized')
    })

    it('409 submitter_not_yet_requested for a later signer under preserved order, and nothing is mailed', async () => {
      const created = await send()
      refused(
        await resend(admin, created.submitters[1]!.id),
        409,
        'submitter_not_yet_requested',
        /not this signer’s turn/,
      )
      await m.work()
      assert.equal(mailsTo(created, 1).length, 0)
    })

    it('409 submitter_not_yet_requested for a signer not sent e-mail (send_email: false)', async () => {
      const created = await send({ send_email: false })
      refused(
        await resend(admin, created.submitters[0]!.id),
        409,
        'submitter_not_yet_requested',
        /send_email/,
      )
    })

    it('409 submission_already_finalized for a cancelled submission, and for one past its expiry', async () => {
      const cancelled = await send()
      const res = await m.t.request(m.key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
      assert.equal(res.statusCode, 200, res.body)
      refused(
        await resend(admin, cancelled.submitters[0]!.id),
        409,
        'submission_already_finalized',
        /cancelled/,
      )
      const expiresAt = new Date(m.t.clock.epochMs() + 60 * MINUTE).toISOString()
      const lapsed = await send({ expires_at: expiresAt })
      m.t.clock.advance(61 * MINUTE)
      refused(await resend(admin, lapsed.submitters[0]!.id), 409, 'submission_already_finalized', /expired/)
    })

    it('400 invalid_id for a malformed id', async () => {
      refused(await resend(admin, 'sbm_nope'), 400, 'invalid_id')
    })
  })

  describe('security', () => {
    it("404 resource_not_found for another account's signer", async () => {
      const created = await send()
      const other = await m.t.account('Other')
      const stranger = await signedInMember(m.t, other.accountId)
      refused(await resend(stranger, created.submitters[0]!.id), 404, 'resource_not_found')
    })

    it('404 resource_not_found for a test signer from a session switched to live', async () => {
      const created = await send()
      const live = await signedInMember(m.t, accountId)
      const switched = await live.request({
        method: 'POST',
        url: '/console/api/session/environment',
        payload: { environment: 'live' },
      })
      assert.equal(switched.statusCode, 200, switched.body)
      refused(await resend(live, created.submitters[0]!.id), 404, 'resource_not_found')
    })

    it('403 csrf_token_invalid without the CSRF token, and nothing is queued', async () => {
      const created = await send()
      refused(await resend(admin, created.submitters[0]!.id, false), 403, 'csrf_token_invalid')
      await m.work()
      assert.equal(mailsTo(created, 0).length, 1, 'the original request only')
    })

    it('401 with an API key instead of a session: the console API takes only the cookie', async () => {
      const created = await send()
      const res = await m.t.request(m.key, {
        method: 'POST',
        url: `/console/api/submitters/${created.submitters[0]!.id}/resend`,
      })
      assert.equal(res.statusCode, 401, res.body)
    })
  })

  describe('limits', () => {
    it('429 rate_limit_exceeded within 5 minutes of a resend, with Retry-After; allowed again after', async () => {
      const created = await send()
      const first = created.submitters[0]!.id
      assert.equal((await resend(admin, first)).statusCode, 202)
      m.t.clock.advance(2 * MINUTE)
      const again = await resend(admin, first)
      refused(again, 429, 'rate_limit_exceeded', /once every 5 minutes/)
      assert.equal(again.headers['retry-after'], '180')
      // Another member's session is counted the same: the limit is the signer's.
      const colleague = await signedInMember(m.t, accountId)
      refused(await resend(colleague, first), 429, 'rate_limit_exceeded')
      m.t.clock.advance(3 * MINUTE)
      assert.equal((await resend(admin, first)).statusCode, 202)
      await m.work()
      assert.equal(mailsTo(created, 0).length, 3, 'the original and two resends; no mail for a refusal')
    })

    it('429 on the sixth resend in 24 hours, Retry-After until the first leaves the window', async () => {
      const created = await send()
      const first = created.submitters[0]!.id
      for (let i = 0; i < 5; i++) {
        assert.equal((await resend(admin, first)).statusCode, 202, `resend ${i + 1}`)
        m.t.clock.advance(10 * MINUTE)
      }
      const sixth = await resend(admin, first)
      refused(sixth, 429, 'rate_limit_exceeded', /5 times in 24 hours/)
      assert.equal(sixth.headers['retry-after'], String((24 * 60 - 50) * 60))
      assert.equal(errorOf(sixth).code, 'rate_limit_exceeded')
      m.t.clock.advance((24 * 60 - 50) * MINUTE)
      // A day later the session is past its 12 idle hours: the member signs in again.
      admin = await signedInMember(m.t, accountId)
      assert.equal((await resend(admin, first)).statusCode, 202)
    })
  })
})
