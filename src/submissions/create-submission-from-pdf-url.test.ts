// POST /v1/submissions/from_pdf with PDFs by URL: real HTTPS fetches from a local server with a
// test certificate (loopback is allowed here by ALLOW_PRIVATE_NETWORK_URLS=true), and the SSRF
// guard with the default policy.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { fromPdfBody, post } from '../../test/documents.ts'
import { a4, letter } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { type PdfServer, startPdfServer } from '../../test/pdf-server.ts'

const field = { name: 'Sig', role: 'signer', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }] }

describe('PDF by URL', () => {
  let server: PdfServer
  let t: TestApp
  let strict: TestApp
  let key: string
  let strictKey: string
  before(async () => {
    server = await startPdfServer()
    server.serve('/contract.pdf', await letter())
    server.serve('/page.html', Buffer.from('<html>not a pdf</html>'), 'text/html')
    t = await startTestApp({ env: { ALLOW_PRIVATE_NETWORK_URLS: 'true' }, trustedCa: server.ca })
    strict = await startTestApp({ trustedCa: server.ca })
    key = (await t.account()).testKey
    strictKey = (await strict.account()).testKey
  })
  after(async () => {
    await t.close()
    await strict.close()
    await server.close()
  })

  const byUrl = (document: Record<string, unknown>, app = t, k = key) =>
    fromPdfBody({ documents: [{ fields: [field], ...document }] }).then((body) =>
      post(app, k, '/v1/submissions/from_pdf', body),
    )

  describe('happy', () => {
    it('201 with pdf_url over HTTPS, naming the document after the URL', async () => {
      const res = await byUrl({ pdf_url: `${server.base}/contract.pdf` })
      assert.equal(res.statusCode, 201, res.body)
      const submission = (
        await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })
      ).json()
      const template = (
        await t.request(key, { method: 'GET', url: `/v1/templates/${submission.template_id}` })
      ).json()
      assert.equal(template.documents[0].name, 'contract')
      assert.deepEqual(template.documents[0].pages, [{ width: 612, height: 792 }])
    })

    it('201 with file as a URL, through redirects (3 at most)', async () => {
      const res = await byUrl({ file: `${server.base}/redirect/3/contract.pdf` })
      assert.equal(res.statusCode, 201, res.body)
    })
  })

  describe('errors', () => {
    const refused = async (document: Record<string, unknown>, pattern: RegExp, app = t, k = key) => {
      const res = await byUrl(document, app, k)
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_pdf_url')
      assert.match(errorOf(res).message, pattern)
    }

    it('422 invalid_pdf_url for a 404, an HTML page and too many redirects', async () => {
      await refused(
        { pdf_url: `${server.base}/missing.pdf` },
        /documents\[0\]\.pdf_url: the server answered HTTP 404/,
      )
      await refused(
        { pdf_url: `${server.base}/page.html` },
        /the file is not a PDF: it is an HTML or XML document/,
      )
      await refused({ pdf_url: `${server.base}/redirect/4/contract.pdf` }, /redirect/i)
    })

    it('422 invalid_pdf_url for a body over 50 MB, stopped while streaming', async () => {
      await refused({ pdf_url: `${server.base}/big` }, /exceeds 52428800 bytes/)
    })

    it('422 invalid_pdf_url for loopback, private and metadata addresses under the default policy', async () => {
      for (const url of [
        `${server.base}/contract.pdf`,
        'https://localhost/contract.pdf',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/x.pdf',
        'https://10.0.0.1/x.pdf',
        'https://0x7f000001/x.pdf',
      ]) {
        // Each says what to do: the setting that lifts it, and its risk.
        await refused(
          { pdf_url: url },
          /ALLOW_PRIVATE_NETWORK_URLS=true .*never in production/,
          strict,
          strictKey,
        )
      }
    })

    it('422 invalid_pdf_url for http: and other schemes under the default policy', async () => {
      await refused(
        { pdf_url: 'http://pdfs.example.eu/x.pdf' },
        /http: .*ALLOW_PRIVATE_NETWORK_URLS=true/,
        strict,
        strictKey,
      )
      // No setting lifts ftp: nothing is suggested.
      const ftp = await byUrl({ pdf_url: 'ftp://pdfs.example.eu/x.pdf' }, strict, strictKey)
      assert.match(errorOf(ftp).message, /ftp/i)
      assert.doesNotMatch(errorOf(ftp).message, /ALLOW_PRIVATE_NETWORK_URLS/)
      await refused({ pdf_url: 'file:///etc/passwd' }, /file/i, strict, strictKey)
    })
  })

  it('a base64 PDF is still accepted beside URL documents', async () => {
    const body = await fromPdfBody()
    ;(body.documents as unknown[]).push({ pdf_url: `${server.base}/contract.pdf` })
    const res = await post(t, key, '/v1/submissions/from_pdf', body)
    assert.equal(res.statusCode, 201, res.body)
    assert.ok(await a4())
  })
})
