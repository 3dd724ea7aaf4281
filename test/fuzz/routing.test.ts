import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { routeFor } from './routing.ts'
import { fuzzedRoutes } from './world.ts'

describe('routeFor: which route app.inject reaches', () => {
  const routes = fuzzedRoutes()
  const find = (method: string, url: string) => {
    const route = routeFor(routes, method, url)
    return route && `${route.method} ${route.url}`
  }

  it('matches parameters, HEAD as GET, and resolves dot segments as app.inject does', () => {
    assert.equal(find('GET', '/v1/submissions/x/documents?a=1'), 'GET /v1/submissions/:id/documents')
    assert.equal(find('HEAD', '/v1/templates'), 'GET /v1/templates')
    assert.equal(find('POST', '/v1/x/../templates'), 'POST /v1/templates')
    assert.equal(find('POST', '/v1/x/%2e%2e/templates'), 'POST /v1/templates')
    assert.equal(find('PUT', '/v1/templates'), undefined)
    assert.equal(find('GET', '/v1/templates/a/b'), undefined)
  })
})
