// docs/signing.md#when-a-request-is-taken-back: once a submission is cancelled, declined or expired
// its links reveal nothing more; while the e-mail code is not verified, neither PDF URL is given.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  type CreatedSubmitter,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  guardedBody,
  refused,
  signer,
  signerPath,
  submissionRow,
  verifiedSession,
} from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { SESSION_HEADER } from './email-code-session.ts'

// Shorter than the hour of a PDF link: an expired submission's link is refused as such (410).
const LIFETIME = 30 * 60 * 1000

describe('GET /s/{slug}/form once the submission ended, and while the e-mail code is not verified', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
  })

  const formOf = async (s: CreatedSubmitter, via: 'link' | 'embed' = 'link', headers = {}) => {
    const res = await signer(t, s, 'form', undefined, via, headers)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['cache-control'], 'no-store')
    return res.json()
  }
  const pageImage = (s: CreatedSubmitter, headers = {}) =>
    t.app.inject({ method: 'GET', url: `${signerPath(s)}/pages/0/1`, headers })

  const ENDINGS: Record<string, (created: Created) => Promise<void>> = {
    cancelled: async (created) => {
      const res = await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      assert.equal(res.statusCode, 200, res.body)
    },
    declined: async (created) => {
      const res = await signer(t, created.submitters[1]!, 'decline', { reason: 'Wrong amount.' })
      assert.equal(res.statusCode, 200, res.body)
    },
    // Past expires_at, before any job moved the submission: the links are dead already.
    expired: async () => {
      t.clock.advance(LIFETIME + 1000)
    },
  }

  for (const [state, end] of Object.entries(ENDINGS)) {
    it(`200 ${state}: no documents, fields or URLs any more, page images 410, an earlier PDF link 410`, async () => {
      const expiresAt = new Date(t.clock.now().getTime() + LIFETIME).toISOString()
      const created = await createSubmission(
        t,
        key,
        await everyTypeBody(['first', 'second'], {
          expires_at: expiresAt,
          redirect_url: 'https://example.eu/ok',
        }),
      )
      const [first, second] = created.submitters as [CreatedSubmitter, CreatedSubmitter]
      assert.equal((await signer(t, first, 'sign', { values: FIRST_VALUES })).statusCode, 200)
      const before = await formOf(second)
      assert.ok(before.documents.length === 1 && before.redirect_url && before.current_pdf_url)
      assert.ok(before.fields.some((f: { value: unknown }) => f.value === FIRST_VALUES.Name))
      assert.equal((await pageImage(second)).statusCode, 200)

      await end(created)
      for (const s of [first, second]) {
        const form = await formOf(s)
        assert.equal(form.state, state)
        assert.deepEqual(form.documents, [])
        assert.deepEqual(form.fields, [])
        assert.equal(form.redirect_url, null)
        assert.equal(form.signed_pdf_url, null)
        assert.equal(form.current_pdf_url, null)
        assert.ok(!JSON.stringify(form).includes(FIRST_VALUES.Name), 'no value anywhere')
        const image = await pageImage(s)
        refused(image, 410, 'submission_not_active')
        assert.equal(image.headers['cache-control'], 'no-store')
      }
      // The embed token of an expired submission expired with it (401); otherwise the same form.
      const embed = await signer(t, second, 'form', undefined, 'embed')
      if (state === 'expired') assert.equal(errorOf(embed).code, 'invalid_signing_token')
      else assert.deepEqual([embed.json().documents, embed.json().fields], [[], []])
      const pdf = await t.app.inject({ method: 'GET', url: new URL(before.current_pdf_url).pathname })
      refused(pdf, 410, 'submission_not_active')
    })
  }

  it('no-store on every answer of the form, a refusal of the link included', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/s/${'x'.repeat(22)}/form` })
    assert.equal(res.statusCode, 404)
    assert.equal(res.headers['cache-control'], 'no-store')
  })

  it('200 neither PDF URL for a guarded signer without the code, even once completed; both with it', async () => {
    const created = await createSubmission(t, key, await guardedBody(['first'], [0]))
    const ann = created.submitters[0]!
    const locked = await formOf(ann)
    assert.deepEqual(
      [locked.state, locked.current_pdf_url, locked.signed_pdf_url],
      ['email_2fa_required', null, null],
    )
    const { session } = await verifiedSession(t, ann)
    const unlocked = { [SESSION_HEADER]: session }
    assert.ok((await formOf(ann, 'link', unlocked)).current_pdf_url)
    const signed = await signer(t, ann, 'sign', { values: FIRST_VALUES }, 'link', unlocked)
    assert.equal(signed.statusCode, 200, signed.body)
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    assert.equal((await submissionRow(t, created.id)).status, 'completed')

    for (const via of ['link', 'embed'] as const) {
      const withheld = await formOf(ann, via)
      assert.equal(withheld.state, 'completed')
      assert.deepEqual([withheld.documents, withheld.fields], [[], []])
      assert.deepEqual([withheld.signed_pdf_url, withheld.current_pdf_url], [null, null], via)
    }
    const shown = await formOf(ann, 'link', unlocked)
    assert.ok(shown.signed_pdf_url && shown.current_pdf_url)
    const sealed = await t.app.inject({ method: 'GET', url: new URL(shown.signed_pdf_url).pathname })
    assert.equal(sealed.statusCode, 200)
    assert.equal(sealed.headers['content-type'], 'application/pdf')
  })
})
