// Every route of the console declares its headers (defineRoute `headers`, sent on every answer,
// refusals included): the security headers everywhere under /console, and no caching of its API
// or sign-in pages (a session's data, a one-time link). A new route that forgets them fails here.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CONSOLE_API_ROUTES } from './console-routes.ts'
import { CONSOLE_NO_STORE_HEADERS, CONSOLE_SECURITY_HEADERS } from './shell/console-headers.ts'
import { CONSOLE_PAGE_ROUTES } from './shell/get-console-page.ts'

describe('the console routes', () => {
  it('are all under /console', () => {
    for (const route of [...CONSOLE_API_ROUTES, ...CONSOLE_PAGE_ROUTES]) {
      assert.ok(route.url === '/console' || route.url.startsWith('/console/'), route.url)
    }
  })

  it('the API and sign-in routes declare the security headers and no-store', () => {
    for (const route of CONSOLE_API_ROUTES) {
      assert.deepEqual(route.headers, CONSOLE_NO_STORE_HEADERS, `${route.method} ${route.url}`)
    }
  })

  it('the pages and assets declare the security headers, cacheable', () => {
    for (const route of CONSOLE_PAGE_ROUTES) {
      assert.deepEqual(route.headers, CONSOLE_SECURITY_HEADERS, `${route.method} ${route.url}`)
    }
  })
})
