import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64, fromPdfBody, post } from '../../test/documents.ts'
import { a4, letter } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { fileUrlFor } from './file-urls.ts'

const HOUR = 60 * 60 * 1000

describe('GET /files/{token}', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>

  /** Creates a submission whose single document has `name` and `pdf`; returns its signed URL. */
  const fileUrl = async (name = 'Contract', pdf?: Uint8Array) => {
    const body = await fromPdfBody()
    const [doc] = body.documents as Array<Record<string, unknown>>
    const documents = [{ ...doc, name, ...(pdf ? { pdf_base64: base64(pdf) } : {}) }]
    const created = await post(t, keys.testKey, '/v1/submissions/from_pdf', { ...body, documents })
    assert.equal(created.statusCode, 201, created.body)
    const res = await t.request(keys.testKey, {
      method: 'GET',
      url: `/v1/submissions/${created.json().id}/documents`,
    })
    return res.json().original_pdf_url as string
  }
  const fetchUrl = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname })
  const edit = (url: string, at: number) =>
    url.slice(0, at) + (url[at] === 'A' ? 'B' : 'A') + url.slice(at + 1)

  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(() => t.close())

  describe('happy', () => {
    it('200 the exact bytes as an application/pdf attachment, without any API key', async () => {
      const res = await fetchUrl(await fileUrl('Lease', await letter()))
      assert.equal(res.statusCode, 200)
      assert.match(String(res.headers['content-type']), /^application\/pdf/)
      assert.equal(res.headers['content-disposition'], 'attachment; filename="Lease.pdf"')
      assert.equal(res.headers['cache-control'], 'private, max-age=300')
      assert.ok(res.rawPayload.equals(Buffer.from(await letter())))
    })

    it('200 names a non-ASCII document with an ASCII fallback and filename*', async () => {
      const res = await fetchUrl(await fileUrl('Contrat signé'))
      assert.equal(res.statusCode, 200)
      assert.equal(
        res.headers['content-disposition'],
        `attachment; filename="Contrat signe.pdf"; filename*=UTF-8''Contrat%20sign%C3%A9.pdf`,
      )
    })

    it('200 until the last second of the hour', async () => {
      const url = await fileUrl()
      t.clock.advance(HOUR - 1)
      const res = await fetchUrl(url)
      assert.equal(res.statusCode, 200)
      assert.ok(res.rawPayload.equals(Buffer.from(await a4())))
    })
  })

  describe('errors', () => {
    it('403 invalid_file_url at and after expiry (1 hour)', async () => {
      const url = await fileUrl()
      t.clock.advance(HOUR)
      const atExpiry = await fetchUrl(url)
      assert.equal(atExpiry.statusCode, 403)
      assert.equal(errorOf(atExpiry).code, 'invalid_file_url')
      t.clock.advance(1000)
      const later = await fetchUrl(url)
      assert.equal(later.statusCode, 403)
      assert.equal(errorOf(later).code, 'invalid_file_url')
      assert.match(errorOf(later).message, /expired/)
    })

    it('404 resource_not_found when the stored file is gone', async () => {
      const url = await fileUrl('Deleted')
      const templates = await t.deps.db.selectFrom('templates').select('documents').execute()
      const doc = templates
        .flatMap((row) => JSON.parse(row.documents) as Array<{ name: string; blob_key: string }>)
        .find((d) => d.name === 'Deleted')
      assert.ok(doc)
      await t.deps.blobs.delete(doc.blob_key)
      const res = await fetchUrl(url)
      assert.equal(res.statusCode, 404)
      assert.equal(errorOf(res).code, 'resource_not_found')
    })
  })

  describe('security', () => {
    it('403 invalid_file_url for a token edited anywhere', async () => {
      const url = await fileUrl()
      const start = url.indexOf('/files/') + '/files/'.length
      for (const at of [start, start + 20, Math.floor((start + url.length) / 2), url.length - 2]) {
        const res = await fetchUrl(edit(url, at))
        assert.equal(res.statusCode, 403, `edited at ${at}`)
        assert.equal(errorOf(res).code, 'invalid_file_url')
        assert.equal(errorOf(res).type, 'invalid_request_error')
      }
    })

    it('403 invalid_file_url for a well-formed token sealed with another key', async () => {
      const blobKey = 'documents/anything.pdf'
      const forged = fileUrlFor(
        Buffer.alloc(32, 7),
        t.config.publicUrl,
        blobKey,
        'x.pdf',
        new Date(Date.UTC(2100, 0)),
      )
      const res = await fetchUrl(forged)
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'invalid_file_url')
    })

    it('403 invalid_file_url for a truncated token', async () => {
      const url = await fileUrl()
      const res = await fetchUrl(url.slice(0, -10))
      assert.equal(res.statusCode, 403)
      assert.equal(errorOf(res).code, 'invalid_file_url')
    })
  })
})
