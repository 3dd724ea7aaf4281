// A completed submission, sealed by the worker, and its files as the API serves them: the final PDF
// and the audit trail (POST /v1/verify's tests, the console's "Verify a PDF" page).
import assert from 'node:assert/strict'
import { jobCatalogue } from '../src/job-catalogue.ts'
import { drainJobs } from '../src/jobs/worker.ts'
import { fromPdfBody, post } from './documents.ts'
import { type TestApp, whatHappened } from './harness.ts'
import { SIGNATURE } from './signing.ts'

export interface Sealed {
  id: string
  completedAt: string
  final: Buffer
  audit: Buffer
}

/** A submission whose only signer is pre-signed, finalized by the worker; its files as downloaded. */
export async function sealedSubmission(t: TestApp, key: string): Promise<Sealed> {
  const body = await fromPdfBody({
    submitters: [
      {
        role: 'signer',
        email: 'ann@example.eu',
        completed: true,
        fields: [{ name: 'Signature', readonly: true, default_value: SIGNATURE }],
      },
    ],
  })
  const created = await post(t, key, '/v1/submissions/from_pdf', body)
  assert.equal(created.statusCode, 201, whatHappened(t, created))
  const id = created.json().id as string
  await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  const submission = (await t.request(key, { method: 'GET', url: `/v1/submissions/${id}` })).json()
  assert.equal(submission.status, 'completed', JSON.stringify(submission))
  const documents = (await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/documents` })).json()
  const final = await t.app.inject({ method: 'GET', url: new URL(documents.signed_pdf_url).pathname })
  assert.equal(final.statusCode, 200, final.body)
  const audit = await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/audit_log` })
  assert.equal(audit.statusCode, 200, audit.body)
  return { id, completedAt: submission.completed_at, final: final.rawPayload, audit: audit.rawPayload }
}
