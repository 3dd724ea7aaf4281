// Pre-signed submitters (docs/api.md#pre-signed-submitters): `completed: true` with preset values
// is signed at creation, mailed nothing, journaled with its source, drawn on the final PDF, and
// counts toward completion — a submission whose submitters are all pre-signed completes at once,
// sealed.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64, post } from '../../test/documents.ts'
import { inkCount, pixelBox } from '../../test/fixtures/ink.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { pdfsig, pdfText, rasterize } from '../../test/fixtures/poppler.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { eventsOf, SIGNATURE, submissionRow } from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

const AREA = { page: 1, x: 0.1, y: 0.6, w: 0.35, h: 0.08 }

describe('pre-signed submitters', () => {
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
  const worker = () => drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  const body = async (submitters: unknown[]) => ({
    documents: [
      {
        name: 'Offer',
        pdf_base64: base64(await a4()),
        fields: [
          { name: 'Company signs', role: 'company', areas: [AREA] },
          { name: 'Company name', type: 'text', role: 'company', areas: [{ ...AREA, y: 0.75, h: 0.04 }] },
        ],
      },
    ],
    submitters,
  })
  const company = {
    role: 'company',
    email: 'ceo@example.eu',
    completed: true,
    fields: [
      { name: 'Company signs', readonly: true, default_value: SIGNATURE },
      { name: 'Company name', default_value: 'Acme Łódź SA' },
    ],
  }

  it('all submitters pre-signed: completed at once with the sealed PDF, the values drawn, no mail', async () => {
    const res = await post(t, key, '/v1/submissions/from_pdf', await body([company]))
    assert.equal(res.statusCode, 201, res.body)
    const id = res.json().id
    assert.equal(res.json().status, 'created', 'nobody is asked to sign: not sent')
    const queued = await t.deps.db.selectFrom('jobs').select(['kind', 'payload']).execute()
    assert.ok(!queued.some((j) => j.kind === 'mail.send'), 'no signing e-mail')
    assert.ok(
      queued.some((j) => j.kind === 'submission.finalize' && JSON.parse(j.payload).submission_id === id),
    )
    await worker()
    const row = await submissionRow(t, id)
    assert.equal(row.status, 'completed', row.finalize_error ?? '')
    const types = (await eventsOf(t, id)).map((e) => e.type)
    assert.deepEqual(types, ['submission.created', 'submitter.pre_signed', 'submission.completed'])

    const documents = (await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/documents` })).json()
    const final = (await t.app.inject({ method: 'GET', url: new URL(documents.signed_pdf_url).pathname }))
      .rawPayload
    assert.match(await pdfsig(final), /Signature is Valid\./)
    assert.ok((await pdfText(final)).includes('Acme Łódź SA'))
    const raster = await rasterize(final, 1, 72)
    assert.ok(inkCount(raster, pixelBox(raster, AREA)) > 50, 'the pre-signed signature is drawn in its area')
  })

  it('a pre-signed signature must be a real PNG data URL, and every required field needs a value', async () => {
    const notPng = await post(
      t,
      key,
      '/v1/submissions/from_pdf',
      await body([
        {
          ...company,
          fields: [{ ...company.fields[0], default_value: 'data:image/png;base64,AAAA' }, company.fields[1]],
        },
      ]),
    )
    assert.equal(notPng.statusCode, 422, notPng.body)
    assert.match(errorOf(notPng).message, /submitters\[0\]\.fields\[0\]/)
    const missing = await post(
      t,
      key,
      '/v1/submissions/from_pdf',
      await body([{ ...company, fields: [company.fields[1]] }]),
    )
    assert.equal(missing.statusCode, 422, missing.body)
    assert.match(errorOf(missing).message, /a pre-signed submitter needs a value for "Company signs"/)
  })
})
