// The console's HTML shell and its bundle files over HTTP: the redirect, the shell at every client
// path, the security headers, immutable content-hashed assets in brotli/gzip, and the size budget
// of a first load (docs/decisions/0002-console-framework.md: ≤ 300 KB brotli).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../test/harness.ts'
import { startTestApp } from '../../../test/harness.ts'

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

function assertSecurityHeaders(headers: Record<string, unknown>): void {
  assert.equal(headers['content-security-policy'], CSP)
  assert.equal(headers['x-frame-options'], 'DENY')
  assert.equal(headers['referrer-policy'], 'same-origin')
  assert.equal(headers['x-content-type-options'], 'nosniff')
}

describe('the console shell and assets', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers })

  describe('happy', () => {
    it('308 from /console to /console/', async () => {
      const res = await get('/console')
      assert.equal(res.statusCode, 308)
      assert.equal(res.headers.location, '/console/')
      assertSecurityHeaders(res.headers)
    })

    it('200 the same HTML shell at /console/ and at any client path, not cached, with the CSP', async () => {
      const root = await get('/console/')
      assert.equal(root.statusCode, 200)
      assert.match(String(root.headers['content-type']), /^text\/html/)
      assert.equal(root.headers['cache-control'], 'no-store')
      assertSecurityHeaders(root.headers)
      assert.match(root.body, /<html lang="en">/)
      assert.match(
        root.body,
        /<script type="module" src="\/console\/assets\/console\.[A-Z0-9]+\.js"><\/script>/,
      )
      assert.match(root.body, /<link rel="stylesheet" href="\/console\/assets\/console\.[A-Z0-9]+\.css">/)
      assert.match(root.body, /<noscript>/)
      assert.doesNotMatch(root.body, /<script>|<style|style="/, 'no inline script or style (CSP)')
      for (const path of ['/console/sign-in', '/console/submissions/sub_123', '/console/templates/new']) {
        const res = await get(path)
        assert.equal(res.statusCode, 200, path)
        assert.equal(res.body, root.body, path)
      }
    })

    it('serves every bundle file immutable, brotli or gzip as accepted, with the CSP', async () => {
      const shell = (await get('/console/')).body
      const script = /src="(\/console\/assets\/[^"]+)"/.exec(shell)![1]!
      const br = await get(script, { 'accept-encoding': 'gzip, br' })
      assert.equal(br.statusCode, 200)
      assert.equal(br.headers['content-encoding'], 'br')
      assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable')
      assert.match(String(br.headers['content-type']), /^text\/javascript/)
      assertSecurityHeaders(br.headers)
      const gzip = await get(script, { 'accept-encoding': 'gzip' })
      assert.equal(gzip.headers['content-encoding'], 'gzip')
      const plain = await get(script)
      assert.equal(plain.headers['content-encoding'], undefined)
      assert.match(plain.body, /sign_in_links/)
    })

    it('a first load (HTML, entry script, its static chunks, style sheet) is at most 300 KB in brotli', async (context) => {
      const shell = await get('/console/', { 'accept-encoding': 'br' })
      const files = [...shell.body.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!)
      assert.ok(files.some((f) => f.endsWith('.css')) && files.some((f) => f.endsWith('.js')))
      let total = shell.rawPayload.length
      for (const file of files) {
        const res = await get(file, { 'accept-encoding': 'br' })
        assert.equal(res.statusCode, 200, file)
        total += res.rawPayload.length
      }
      context.diagnostic(`console first load: ${(total / 1024).toFixed(1)} KB brotli, ${files.length} files`)
      assert.ok(total <= 300 * 1024, `${total} bytes`)
    })
  })

  describe('errors', () => {
    it('404 for an unknown bundle file, and JSON 404 (not the shell) under /console/api/', async () => {
      assert.equal((await get('/console/assets/nothing.js')).statusCode, 404)
      const api = await get('/console/api/nothing-here')
      assert.equal(api.statusCode, 404)
      assert.equal(api.json().error.code, 'resource_not_found')
      assert.equal((await get('/console/sign-in/some-token/extra')).statusCode, 404)
    })
  })
})
