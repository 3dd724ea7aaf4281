// The signer's document as it stands, behind the form's `current_pdf_url`.
import assert from 'node:assert/strict'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  type CreatedSubmitter,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  refused,
  SIGNATURE,
  signer,
} from '../../test/signing.ts'
import type { ApiError } from '../errors.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import type { FsBlobStore } from '../storage/fs-blob-store.ts'
import { ensureCurrentPdf, type MakeOptions } from './current-pdf.ts'
import { signerView } from './signer-view.ts'
import { visibleValues } from './visible-values.ts'

const HOUR = 60 * 60 * 1000
const SECOND_VALUES = { 'second signature': SIGNATURE, 'Second reference': 'REF-7731' }

/** Every field type for `first`; a signature and a text for `second`, who signs after. */
async function body() {
  const base = await everyTypeBody(['first', 'second'])
  base.documents[0]!.fields.push({
    name: 'Second reference',
    type: 'text',
    role: 'second',
    areas: [{ page: 2, x: 0.5, y: 0.1, w: 0.4, h: 0.05 }],
  } as (typeof base.documents)[0]['fields'][number])
  return base
}

describe('GET /files/current/{grant}', () => {
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

  const formOf = async (s: CreatedSubmitter) => {
    const res = await signer(t, s, 'form')
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  /** The first signer's document as it stands, made directly with these options. */
  /** What ensureCurrentPdf needs for the first signer of `created`, read beforehand. */
  const inputsOf = async (created: Created) => {
    const row = await t.deps.db
      .selectFrom('submitters')
      .selectAll()
      .where('id', '=', created.submitters[0]!.id)
      .executeTakeFirstOrThrow()
    const view = await signerView(t.deps, row, null, () => true)
    return { view, visible: visibleValues(view.template.fields, row, view.everyone) }
  }
  const ensureWith = ({ view, visible }: Awaited<ReturnType<typeof inputsOf>>, options: MakeOptions) =>
    ensureCurrentPdf(t.deps, view.submission, view.template, visible, options)
  const ensure = async (created: Created, options: MakeOptions) =>
    ensureWith(await inputsOf(created), options)
  const download = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname })
  const textOf = async (url: string) => {
    const res = await download(url)
    assert.equal(res.statusCode, 200, res.body)
    return pdfText(res.rawPayload)
  }
  /** The versions kept in storage for a submission. */
  const keptVersions = async (created: Created) => {
    const { accountId } = await t.deps.db
      .selectFrom('submissions')
      .select('account_id as accountId')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    const dir = join((t.deps.blobs as FsBlobStore).root, accountId, 'test/submissions', created.id, 'current')
    const names = await readdir(dir).catch(() => [] as string[])
    return names.filter((n) => n.endsWith('.pdf')).length
  }

  describe('happy', () => {
    it("200 before signing: the first signer's values drawn for the second; each signer's own right after they signed", async () => {
      const created = await createSubmission(t, key, await body())
      const [first, second] = created.submitters as [CreatedSubmitter, CreatedSubmitter]
      const blank = await textOf((await formOf(first)).current_pdf_url)
      assert.match(blank, /unsealed, not the final signed document/)
      assert.doesNotMatch(blank, /Łukasz/, 'nothing entered yet')

      const signed = await signer(t, first, 'sign', { values: FIRST_VALUES })
      assert.equal(signed.statusCode, 200, signed.body)
      const ownCopy = await textOf(signed.json().current_pdf_url)
      for (const value of ['Łukasz Żółć', '2026-11-23', '1250.5', 'pro', 'DE']) {
        assert.ok(ownCopy.includes(value), `the first signer's copy shows ${value}`)
      }

      const beforeSigning = await textOf((await formOf(second)).current_pdf_url)
      for (const value of ['Łukasz Żółć', '2026-11-23', '1250.5', 'pro', 'DE']) {
        assert.ok(beforeSigning.includes(value), `the second signer reads ${value} before signing`)
      }
      assert.ok(!beforeSigning.includes('REF-7731'))

      const done = await signer(t, second, 'sign', { values: SECOND_VALUES })
      assert.equal(done.statusCode, 200, done.body)
      const secondCopy = await textOf(done.json().current_pdf_url)
      assert.ok(secondCopy.includes('REF-7731') && secondCopy.includes('Łukasz Żółć'))
    })

    it('200 a PDF named after the document and the day of its newest value, never cached', async () => {
      const created = await createSubmission(t, key, await body())
      t.clock.advance(2 * 24 * HOUR)
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      const day = t.clock.now().toISOString().slice(0, 10)
      t.clock.advance(24 * HOUR)
      const res = await download((await formOf(created.submitters[1]!)).current_pdf_url)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['content-type'], 'application/pdf')
      assert.equal(res.headers['cache-control'], 'no-store')
      assert.equal(res.headers['content-disposition'], `attachment; filename="Contract (as of ${day}).pdf"`)
      assert.ok(res.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-')))
      assert.match(await pdfText(res.rawPayload), new RegExp(`values entered until ${day} \\d\\d:\\d\\d UTC`))
    })

    it('made once per version of the values: downloads at once and again share one file', async () => {
      const created = await createSubmission(t, key, await body())
      const url = (await formOf(created.submitters[1]!)).current_pdf_url
      const [a, b] = await Promise.all([download(url), download(url)])
      assert.equal(a.statusCode, 200, a.body)
      assert.ok(a.rawPayload.equals(b.rawPayload))
      assert.ok((await download(url)).rawPayload.equals(a.rawPayload))
      assert.equal(await keptVersions(created), 1)
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      const later = await download((await formOf(created.submitters[1]!)).current_pdf_url)
      assert.ok(!later.rawPayload.equals(a.rawPayload), 'a new signature, a new version')
      assert.equal(await keptVersions(created), 2)
    })
  })

  describe('errors', () => {
    it('410 submission_not_active for a URL given before the submission was cancelled', async () => {
      const created = await createSubmission(t, key, await body())
      const url = (await formOf(created.submitters[0]!)).current_pdf_url
      assert.equal((await download(url)).statusCode, 200)
      const cancel = await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
      assert.equal(cancel.statusCode, 200, cancel.body)
      const res = await download(url)
      refused(res, 410, 'submission_not_active', /cancelled/)
      assert.equal(res.headers['cache-control'], 'no-store')
    })

    it('503 current_pdf_busy with Retry-After beyond the versions made at once', async () => {
      const a = await createSubmission(t, key, await body())
      const b = await createSubmission(t, key, await body())
      // Whichever reaches the queue first is made; the other finds it full. Their reads are done
      // first, so both reach the queue at once (not the second after the first was made).
      const [inputsA, inputsB] = [await inputsOf(a), await inputsOf(b)]
      const outcomes = await Promise.allSettled([
        ensureWith(inputsA, { queue: 1 }),
        ensureWith(inputsB, { queue: 1 }),
      ])
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected'])
      const error = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason
      assert.equal(error.code, 'current_pdf_busy')
      assert.equal(error.status, 503)
      assert.equal(error.headers['retry-after'], '10')
      // Once the first is made, the queue is free again for the other.
      await ensure(a, { queue: 1 })
      await ensure(b, { queue: 1 })
    })

    it('500 current_pdf_failed past its time, then refused at once for 10 minutes rather than tried again', async () => {
      const created = await createSubmission(t, key, await body())
      await assert.rejects(ensure(created, { timeoutMs: 1 }), (error: ApiError) => {
        assert.equal(error.code, 'current_pdf_failed')
        assert.match(error.message, /took longer than/)
        return true
      })
      // Through the route, with all the time it allows: not tried again yet.
      const url = (await formOf(created.submitters[0]!)).current_pdf_url
      refused(await download(url), 500, 'current_pdf_failed', /took longer than/)
      t.clock.advance(10 * 60 * 1000 + 1000)
      const res = await download((await formOf(created.submitters[0]!)).current_pdf_url)
      assert.equal(res.statusCode, 200, res.body)
    })
  })

  describe('security', () => {
    it('403 invalid_file_url once expired, when edited, or after the signer’s address changed', async () => {
      const created = await createSubmission(t, key, await body())
      const url = (await formOf(created.submitters[0]!)).current_pdf_url
      const grant = new URL(url).pathname.split('/').pop()!
      const [sid, sbm, exp, mac] = grant.split('.')
      const other = created.submitters[1]!.id
      // Another signer's id, a later expiry, and no grant at all.
      for (const edited of [
        `${sid}.${other}.${exp}.${mac}`,
        `${sid}.${sbm}.${Number(exp) + 60}.${mac}`,
        'x',
      ]) {
        const res = await t.app.inject({ method: 'GET', url: `/files/current/${edited}` })
        refused(res, 403, 'invalid_file_url', /not valid/)
      }
      t.clock.advance(HOUR + 1000)
      refused(await download(url), 403, 'invalid_file_url', /has expired/)

      const fresh = (await formOf(created.submitters[0]!)).current_pdf_url
      assert.equal((await download(fresh)).statusCode, 200)
      const patch = await t.request(key, {
        method: 'PATCH',
        url: `/v1/submitters/${created.submitters[0]!.id}`,
        payload: JSON.stringify({ email: 'ann.new@example.eu' }),
        headers: { 'content-type': 'application/json' },
      })
      assert.equal(patch.statusCode, 200, patch.body)
      refused(await download(fresh), 403, 'invalid_file_url')
    })
  })
})
