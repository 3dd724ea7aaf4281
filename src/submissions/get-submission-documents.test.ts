import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { base64, fromPdfBody, post } from '../../test/documents.ts'
import { a4, letter } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const HOUR = 60 * 60 * 1000
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('GET /v1/submissions/{id}/documents', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let submissionId: string

  const documents = (id: string, key = keys.testKey) =>
    t.request(key, { method: 'GET', url: `/v1/submissions/${id}/documents` })
  /** A signed file URL fetched through the app, without any API key. */
  const fetchUrl = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname })

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    const res = await post(t, keys.testKey, '/v1/submissions/from_pdf', await fromPdfBody())
    assert.equal(res.statusCode, 201, res.body)
    submissionId = res.json().id
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 signed URLs valid 1 hour, no signed PDF before completion', async () => {
      const res = await documents(submissionId)
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.equal(body.submission_id, submissionId)
      assert.equal(body.status, 'sent')
      assert.equal(body.signed_pdf_url, null)
      assert.equal(body.url_expires_at, new Date(t.clock.now().getTime() + HOUR).toISOString())
      assert.ok(body.original_pdf_url.startsWith(`${t.config.publicUrl}/files/`), body.original_pdf_url)
      assert.deepEqual(body.documents, [
        { name: 'Contract', sha256: sha256(await a4()), original_pdf_url: body.original_pdf_url },
      ])
    })

    it('200 original_pdf_url serves the exact bytes sent, as a named PDF attachment', async () => {
      const { original_pdf_url: url } = (await documents(submissionId)).json()
      const file = await fetchUrl(url)
      assert.equal(file.statusCode, 200)
      assert.match(String(file.headers['content-type']), /^application\/pdf/)
      assert.equal(file.headers['content-disposition'], 'attachment; filename="Contract.pdf"')
      assert.ok(file.rawPayload.equals(Buffer.from(await a4())), 'byte-for-byte the PDF sent')
      assert.equal(sha256(file.rawPayload), sha256(await a4()))
    })

    it('200 every document of a multi-document submission, the first as original_pdf_url', async () => {
      const base = await fromPdfBody()
      const [contract] = base.documents as Array<Record<string, unknown>>
      const annex = { name: 'Annex.pdf', pdf_base64: base64(await letter()), fields: [] }
      const res = await post(t, keys.testKey, '/v1/submissions/from_pdf', {
        ...base,
        documents: [contract, annex],
      })
      assert.equal(res.statusCode, 201, res.body)
      const body = (await documents(res.json().id)).json()
      assert.deepEqual(
        body.documents.map((d: { name: string; sha256: string }) => [d.name, d.sha256]),
        [
          ['Contract', sha256(await a4())],
          ['Annex.pdf', sha256(await letter())],
        ],
      )
      assert.equal(body.original_pdf_url, body.documents[0].original_pdf_url)
      const annexFile = await fetchUrl(body.documents[1].original_pdf_url)
      assert.equal(annexFile.statusCode, 200)
      assert.ok(annexFile.rawPayload.equals(Buffer.from(await letter())))
      assert.equal(annexFile.headers['content-disposition'], 'attachment; filename="Annex.pdf"')
    })

    it('200 with the current status after cancellation, still without a signed PDF', async () => {
      const res = await post(t, keys.testKey, '/v1/submissions/from_pdf', await fromPdfBody())
      const id = res.json().id
      assert.equal(
        (await t.request(keys.testKey, { method: 'DELETE', url: `/v1/submissions/${id}` })).statusCode,
        200,
      )
      const body = (await documents(id)).json()
      assert.equal(body.status, 'cancelled')
      assert.equal(body.signed_pdf_url, null)
      assert.equal((await fetchUrl(body.original_pdf_url)).statusCode, 200)
    })
  })

  describe('errors', () => {
    it('404 resource_not_found for a well-formed unknown id', async () => {
      const res = await documents(`sub_${'Z'.repeat(24)}`)
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
    })

    for (const id of ['sub_1', `tpl_${'a'.repeat(24)}`]) {
      it(`400 invalid_id for ${id}`, async () => {
        const res = await documents(id)
        assert.equal(res.statusCode, 400)
        assert.equal(errorOf(res).code, 'invalid_id')
      })
    }
  })

  describe('security', () => {
    it('403 invalid_file_url for an edited token', async () => {
      const { original_pdf_url: url } = (await documents(submissionId)).json()
      const at = url.length - 20
      const edited = url.slice(0, at) + (url[at] === 'A' ? 'B' : 'A') + url.slice(at + 1)
      const res = await fetchUrl(edited)
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'invalid_file_url')
      assert.equal(errorOf(res).type, 'invalid_request_error')
    })

    it('403 invalid_file_url once the hour has passed; a fresh URL works again', async () => {
      const { original_pdf_url: url } = (await documents(submissionId)).json()
      t.clock.advance(HOUR - 1000)
      assert.equal((await fetchUrl(url)).statusCode, 200)
      t.clock.advance(2000)
      const res = await fetchUrl(url)
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'invalid_file_url')
      const fresh = (await documents(submissionId)).json().original_pdf_url
      assert.equal((await fetchUrl(fresh)).statusCode, 200)
    })

    it("404 resource_not_found for another account's or the live key", async () => {
      const other = await t.account('other')
      for (const key of [other.testKey, keys.liveKey]) {
        const res = await documents(submissionId, key)
        assert.equal(res.statusCode, 404)
        assert.equal(errorOf(res).code, 'resource_not_found')
      }
    })

    it('401 missing_api_key without a key', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/submissions/${submissionId}/documents` })
      assert.equal(res.statusCode, 401)
      assert.equal(errorOf(res).code, 'missing_api_key')
    })
  })
})
