// GET / (issue #33): a browser is redirected to the console; a program keeps the JSON 404 naming
// /openapi.yaml, and both answers say they vary by Accept.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../../test/harness.ts'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

describe('GET / for browsers and for programs', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  const root = (accept?: string, method: 'GET' | 'HEAD' = 'GET', url = '/') =>
    t.app.inject({ method, url, headers: accept === undefined ? {} : { accept } })

  describe('happy', () => {
    it("302 to /console/ for a browser's navigation, varying by Accept; the console's page answers there", async () => {
      const res = await root(BROWSER)
      assert.equal(res.statusCode, 302)
      assert.equal(res.headers.location, '/console/')
      assert.equal(res.headers.vary, 'Accept')
      assert.match(String(res.headers['request-id']), /^req_/)
      assert.equal(res.body, '')
      const page = await t.app.inject({
        method: 'GET',
        url: res.headers.location,
        headers: { accept: BROWSER },
      })
      assert.equal(page.statusCode, 200)
      assert.match(String(page.headers['content-type']), /^text\/html/)
    })

    it('302 for HEAD and with a query string too', async () => {
      assert.equal((await root(BROWSER, 'HEAD')).statusCode, 302)
      const query = await root(BROWSER, 'GET', '/?from=bookmark')
      assert.equal(query.statusCode, 302)
      assert.equal(query.headers.location, '/console/')
    })
  })

  describe('errors', () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html']) {
      it(`404 resource_not_found in JSON, as before, for Accept: ${accept ?? '(none)'}`, async () => {
        const res = await root(accept)
        assert.equal(res.statusCode, 404)
        assert.match(String(res.headers['content-type']), /^application\/json/)
        assert.equal(res.headers.vary, 'Accept')
        assert.deepEqual(errorOf(res), {
          type: 'invalid_request_error',
          code: 'resource_not_found',
          message: 'Unknown route GET /; the routes are listed at /openapi.yaml.',
        })
      })
    }

    it('404 for a browser everywhere else: POST /, and unknown paths, are not redirected', async () => {
      const post = await t.app.inject({ method: 'POST', url: '/', headers: { accept: BROWSER } })
      assert.equal(post.statusCode, 404)
      assert.equal(post.headers.vary, undefined)
      const other = await root(BROWSER, 'GET', '/nope')
      assert.equal(other.statusCode, 404)
      assert.equal(other.headers.location, undefined)
    })
  })
})
