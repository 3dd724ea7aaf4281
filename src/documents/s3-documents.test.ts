// The document routes with STORAGE_URL=s3://… against a local S3-compatible server (s3rver):
// PDFs land in the bucket and GET /v1/submissions/{id}/documents answers presigned S3 URLs.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { fromPdfBody, post } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../../test/s3-server.ts'
import { createSubmission, everyTypeBody, FIRST_VALUES, signer } from '../../test/signing.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

describe('documents on S3 storage', () => {
  let s3: TestS3Server
  let t: TestApp
  let key: string
  before(async () => {
    s3 = await startS3Server()
    // The S3 store reads credentials the usual AWS way; s3rver accepts only its own.
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey
    // s3rver refuses a presigned URL whose date and lifetime have passed by its own clock.
    t = await startTestApp({ env: { STORAGE_URL: s3.url }, clockStart: new Date() })
    key = (await t.account()).testKey
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
    await s3.close()
  })

  it('stores the PDF in the bucket and serves it through a presigned URL', async () => {
    const created = await post(t, key, '/v1/submissions/from_pdf', await fromPdfBody())
    assert.equal(created.statusCode, 201, created.body)
    const docs = (
      await t.request(key, { method: 'GET', url: `/v1/submissions/${created.json().id}/documents` })
    ).json()
    const url = new URL(docs.original_pdf_url)
    assert.equal(url.origin, new URL(s3.endpoint).origin, 'served by S3, not by Paraph')
    assert.ok(url.searchParams.get('X-Amz-Signature'))
    assert.equal(url.searchParams.get('X-Amz-Expires'), '3600')
    const response = await fetch(url)
    assert.equal(response.status, 200)
    const bytes = Buffer.from(await response.arrayBuffer())
    assert.equal(
      createHash('sha256').update(bytes).digest('hex'),
      createHash('sha256')
        .update(await a4())
        .digest('hex'),
    )
    assert.match(response.headers.get('content-disposition') ?? '', /Contract\.pdf/)
  })

  it('the signer form links to the same bucket', async () => {
    const created = await post(t, key, '/v1/submissions/from_pdf', await fromPdfBody())
    const slug = new URL(created.json().submitters[0].signing_url).pathname.split('/').pop()
    const form = (await t.app.inject({ method: 'GET', url: `/s/${slug}/form` })).json()
    assert.equal((await fetch(form.documents[0].pdf_url)).status, 200)
  })

  it("issue #20: another signer's image and the document as it stands, both through Paraph", async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    const form = (await signer(t, created.submitters[1]!, 'form')).json()
    const signature = form.fields.find((f: { name: string }) => f.name === 'Signature').value
    // Served by Paraph, not presigned: the page's CSP allows images from PUBLIC_URL only.
    assert.equal(new URL(signature).origin, t.config.publicUrl)
    const image = await t.app.inject({ method: 'GET', url: new URL(signature).pathname })
    assert.equal(image.statusCode, 200)
    assert.equal(image.headers['content-type'], 'image/png')
    // Not presigned: every download checks that the submission is still active.
    assert.equal(new URL(form.current_pdf_url).origin, t.config.publicUrl)
    const pdf = await t.app.inject({ method: 'GET', url: new URL(form.current_pdf_url).pathname })
    assert.equal(pdf.statusCode, 200, pdf.body)
    assert.ok((await pdfText(pdf.rawPayload)).includes(FIRST_VALUES.Name))
  })
})
