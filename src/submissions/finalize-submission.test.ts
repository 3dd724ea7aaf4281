// Signing to the end, through the signer interface, then the finalization job: the sealed final PDF
// and the audit trail, checked with outside tools (pdfsig, qpdf, pdftotext, pdftoppm).
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { base64 } from '../../test/documents.ts'
import { inkCount, pixelBox } from '../../test/fixtures/ink.ts'
import { croppedPage, pdfOfPages } from '../../test/fixtures/pdfs.ts'
import { pdfsig, pdfText, qpdfCheck, rasterize } from '../../test/fixtures/poppler.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  eventsOf,
  SIGNATURE,
  signer,
  submissionRow,
  verifiedSession,
} from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const area = (page: number, x: number, y: number, w = 0.3, h = 0.06) => ({ page, x, y, w, h })

/** Three signers over three documents: A4, a rotated Letter, and a cropped A4. */
async function threeSigners(order: 'preserved' | 'random' = 'preserved') {
  return {
    signing_order: order,
    documents: [
      {
        name: 'Contract',
        pdf_base64: base64(
          await pdfOfPages([
            [595.28, 841.89],
            [595.28, 841.89],
          ]),
        ),
        fields: [
          { name: 'Ann signs', role: 'ann', areas: [area(1, 0.1, 0.7)] },
          { name: 'Ann name', type: 'text', role: 'ann', areas: [area(2, 0.1, 0.2)] },
          { name: 'Agree', type: 'checkbox', role: 'ann', areas: [area(2, 0.1, 0.4, 0.05, 0.04)] },
        ],
      },
      {
        name: 'Annex',
        pdf_base64: base64(await pdfOfPages([{ size: [612, 792], rotate: 90 }])),
        fields: [
          { name: 'Bob signs', role: 'bob', areas: [area(1, 0.55, 0.5)] },
          { name: 'Plan', type: 'radio', role: 'bob', options: ['basic', 'pro'], areas: [area(1, 0.1, 0.5)] },
        ],
      },
      {
        name: 'Terms',
        pdf_base64: base64(await croppedPage()),
        fields: [
          { name: 'Cleo signs', role: 'cleo', areas: [area(1, 0.5, 0.8)] },
          { name: 'Date', type: 'date', role: 'cleo', areas: [area(1, 0.1, 0.8)] },
        ],
      },
    ],
    submitters: ['ann', 'bob', 'cleo'].map((role) => ({ role, email: `${role}@example.eu`, name: role })),
  }
}

const VALUES: Record<string, Record<string, unknown>> = {
  ann: { 'Ann signs': SIGNATURE, 'Ann name': 'Ann Łukasiewicz', Agree: true },
  bob: { 'Bob signs': SIGNATURE, Plan: 'pro' },
  cleo: { 'Cleo signs': SIGNATURE, Date: '2026-11-23' },
}

describe('finalization: the sealed final PDF and the audit trail', () => {
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

  const signAll = async (created: Created) => {
    for (const [i, role] of ['ann', 'bob', 'cleo'].entries()) {
      const res = await signer(t, created.submitters[i]!, 'sign', { values: VALUES[role] })
      assert.equal(res.statusCode, 200, res.body)
    }
  }
  const worker = () => drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  const download = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname })
    assert.equal(res.statusCode, 200, res.body)
    return res.rawPayload
  }
  const get = (url: string) => t.request(key, { method: 'GET', url })

  it('completes: every value drawn on its page, footers, a valid PAdES seal, one submission.completed', async () => {
    const created = await createSubmission(t, key, await threeSigners())
    const early = await get(`/v1/submissions/${created.id}/audit_log`)
    assert.equal(early.statusCode, 404)
    assert.equal(errorOf(early).code, 'submission_not_completed')
    await signAll(created)
    await worker()
    const row = await submissionRow(t, created.id)
    assert.equal(row.status, 'completed', row.finalize_error ?? '')
    assert.ok(row.completed_at)
    const events = (await eventsOf(t, created.id)).map((e) => e.type)
    assert.equal(events.filter((e) => e === 'submission.completed').length, 1)
    assert.equal(events.at(-1), 'submission.completed')

    const documents = (await get(`/v1/submissions/${created.id}/documents`)).json()
    const final = await download(documents.signed_pdf_url)
    assert.equal(sha256(final), row.final_pdf_sha256)
    const report = await pdfsig(final)
    assert.match(report, /Signature is Valid\./, report)
    assert.match(report, /Total document signed/, report)
    await qpdfCheck(final)
    const flipped = Buffer.from(final)
    flipped[200] = flipped[200]! ^ 0x01
    assert.match(await pdfsig(flipped), /Digest Mismatch\./)

    const text = await pdfText(final)
    for (const expected of [
      'Ann Łukasiewicz',
      'pro',
      '2026-11-23',
      'Simple electronic signature (SES)',
      `${created.id}`,
      'page 4 of 4',
    ]) {
      assert.ok(text.includes(expected), `final PDF text lacks ${expected}: ${text}`)
    }
    // Each signature is ink inside its area, on its page (document pages follow one another).
    for (const [page, a] of [
      [1, area(1, 0.1, 0.7)],
      [3, area(1, 0.55, 0.5)],
      [4, area(1, 0.5, 0.8)],
    ] as const) {
      const raster = await rasterize(final, page)
      assert.ok(inkCount(raster, pixelBox(raster, a)) > 50, `signature drawn on page ${page}`)
    }
    const page2 = await rasterize(final, 2)
    assert.ok(inkCount(page2, pixelBox(page2, area(2, 0.1, 0.4, 0.05, 0.04))) > 5, 'the checkbox is ticked')
  })

  it('the audit trail: sealed PDF and JSON twin, hashes equal to the files served, every act and event', async () => {
    const created = await createSubmission(t, key, await threeSigners('random'))
    await signer(t, created.submitters[1]!, 'open', undefined, 'embed')
    await signAll(created)
    await worker()
    const json = (await get(`/v1/submissions/${created.id}/audit_log.json`)).json()
    const documents = (await get(`/v1/submissions/${created.id}/documents`)).json()
    assert.equal(json.final_pdf.sha256, sha256(await download(documents.signed_pdf_url)))
    assert.equal(json.final_pdf.page_count, 4)
    assert.deepEqual(
      json.documents.map((d: { sha256: string }) => d.sha256),
      await Promise.all(
        documents.documents.map(async (d: { original_pdf_url: string }) =>
          sha256(await download(d.original_pdf_url)),
        ),
      ),
    )
    const bob = json.submitters[1]
    assert.deepEqual(
      [bob.delivery, bob.opened_ip, bob.signed_ip, bob.signed_user_agent],
      ['embed', '203.0.113.7', '203.0.113.7', 'SignerBrowser/1.0'],
    )
    assert.match(bob.consent_text, /simple electronic signature/)
    assert.deepEqual(bob.values.find((v: { name: string }) => v.name === 'Bob signs').value.width, 300)
    assert.ok(json.events.every((e: { created_at: string }) => /\.\d{3}Z$/.test(e.created_at)))
    assert.equal(json.completed_at, (await submissionRow(t, created.id)).completed_at)

    const pdf = await get(`/v1/submissions/${created.id}/audit_log`)
    assert.equal(pdf.statusCode, 200)
    assert.equal(pdf.headers['content-type'], 'application/pdf')
    const report = await pdfsig(pdf.rawPayload)
    assert.match(report, /Signature is Valid\./, report)
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ')
    for (const expected of [
      created.id,
      json.final_pdf.sha256,
      ...json.documents.map((d: { sha256: string }) => d.sha256),
      'ann@example.eu',
      'submitter.signed',
    ]) {
      assert.ok(text.includes(expected), `audit PDF lacks ${expected}`)
    }
    const again = await get(`/v1/submissions/${created.id}/audit_log`)
    assert.equal(sha256(again.rawPayload), sha256(pdf.rawPayload), 'served as stored: the bytes never change')
  })

  it('the audit trail shows the e-mail code verification and the address the sender changed', async () => {
    const body = await threeSigners()
    body.submitters[1] = {
      ...body.submitters[1]!,
      require_email_2fa: true,
    } as (typeof body.submitters)[number]
    const created = await createSubmission(t, key, body)
    const bob = created.submitters[1]!
    const patched = await t.request(key, {
      method: 'PATCH',
      url: `/v1/submitters/${bob.id}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'robert@example.eu' }),
    })
    assert.equal(patched.statusCode, 200, patched.body)
    const bobNow = { ...bob, signing_url: patched.json().signing_url }
    assert.equal((await signer(t, created.submitters[0]!, 'sign', { values: VALUES.ann })).statusCode, 200)
    t.clock.advance(60_000)
    const { cookie } = await verifiedSession(t, bobNow)
    const verifiedAt = t.clock.now().toISOString()
    const signed = await signer(t, bobNow, 'sign', { values: VALUES.bob }, 'link', { cookie })
    assert.equal(signed.statusCode, 200, signed.body)
    assert.equal((await signer(t, created.submitters[2]!, 'sign', { values: VALUES.cleo })).statusCode, 200)
    await worker()
    const json = (await get(`/v1/submissions/${created.id}/audit_log.json`)).json()
    assert.deepEqual(
      json.submitters.map((s: { email: string; email_2fa_verified_at: string | null }) => [
        s.email,
        s.email_2fa_verified_at,
      ]),
      [
        ['ann@example.eu', null],
        ['robert@example.eu', verifiedAt],
        ['cleo@example.eu', null],
      ],
    )
    const details = 'Changed by the sender: email bob@example.eu → robert@example.eu'
    const updated = json.events.find((e: { type: string }) => e.type === 'submitter.updated')
    assert.deepEqual([updated.submitter_id, updated.details, updated.ip], [bob.id, details, null])
    const verified = json.events.find((e: { type: string }) => e.type === 'submitter.email_2fa_verified')
    assert.deepEqual([verified.created_at, verified.ip], [verifiedAt, '203.0.113.7'])
    const text = (await pdfText((await get(`/v1/submissions/${created.id}/audit_log`)).rawPayload)).replace(
      /\s+/g,
      ' ',
    )
    for (const expected of [
      `e-mail code verified at ${verifiedAt}`,
      details,
      'submitter.email_2fa_verified',
    ]) {
      assert.ok(text.includes(expected), `audit PDF lacks ${expected}`)
    }
  })

  it('two attempts at once (a lease that lapsed): one completion, the loser’s files removed', async () => {
    const created = await createSubmission(t, key, await threeSigners())
    await signAll(created)
    const { finalizeSubmission } = await import('./finalize-submission.ts')
    await Promise.all([
      finalizeSubmission(t.deps, created.id, { attempt: 1 }),
      finalizeSubmission(t.deps, created.id, { attempt: 2 }),
    ])
    const row = await submissionRow(t, created.id)
    assert.equal(row.status, 'completed')
    assert.equal((await eventsOf(t, created.id)).filter((e) => e.type === 'submission.completed').length, 1)
    const loser = row.final_pdf_key!.endsWith('final-1.pdf') ? 2 : 1
    assert.equal(
      await t.deps.blobs.exists(row.final_pdf_key!.replace(/final-\d\.pdf$/, `final-${loser}.pdf`)),
      false,
    )
    assert.equal(await t.deps.blobs.exists(row.final_pdf_key!), true)
  })

  it('a stored document that cannot be finalized: the reason on the submission, retried, never completed', async () => {
    const created = await createSubmission(t, key, await threeSigners())
    await signAll(created)
    const template = await t.deps.db
      .selectFrom('templates')
      .select('documents')
      .where('id', '=', (await submissionRow(t, created.id)).template_id)
      .executeTakeFirstOrThrow()
    const [first] = JSON.parse(template.documents) as Array<{ blob_key: string }>
    await t.deps.blobs.put(
      first!.blob_key,
      Buffer.from('%PDF-1.7\nthis is no longer a PDF'),
      'application/pdf',
    )
    await worker()
    const row = await submissionRow(t, created.id)
    assert.notEqual(row.status, 'completed')
    assert.equal(row.finalize_error, 'document 1 could not be read as a PDF', 'a sentence for the client')
    const read = (await get(`/v1/submissions/${created.id}`)).json()
    assert.equal(read.finalization_error, row.finalize_error)
    const job = await t.deps.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'submission.finalize')
      .where('payload', 'like', `%${created.id}%`)
      .executeTakeFirstOrThrow()
    assert.equal(job.state, 'pending', 'scheduled for a retry')
    assert.equal(job.attempt, 1)
    assert.equal((await get('/v1/health')).statusCode, 200)
  })
})
