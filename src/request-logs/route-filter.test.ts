import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { parseRouteFilter } from './route-filter.ts'

const ROUTES = [
  { method: 'GET', url: '/v1/submissions' },
  { method: 'POST', url: '/v1/submissions' },
  { method: 'GET', url: '/v1/submissions/:id' },
  { method: 'POST', url: '/v1/submissions/from_pdf' },
]

const parse = (text: string) => parseRouteFilter(text, ROUTES)

describe('parseRouteFilter', () => {
  it('a route as the logs show it, alone or after a method', () => {
    assert.deepEqual(parse('/v1/submissions/{id}'), { route: '/v1/submissions/{id}' })
    assert.deepEqual(parse('GET /v1/submissions/{id}'), { method: 'GET', route: '/v1/submissions/{id}' })
    assert.deepEqual(parse('/v1/submissions/:id'), { route: '/v1/submissions/{id}' })
  })

  it('a method and a concrete path: the route that answers it', () => {
    assert.deepEqual(parse('POST /v1/submissions'), { method: 'POST', route: '/v1/submissions' })
    assert.deepEqual(parse('GET /v1/submissions/sub_123'), { method: 'GET', route: '/v1/submissions/{id}' })
    assert.deepEqual(parse('get   /v1/submissions/sub_123 '), {
      method: 'GET',
      route: '/v1/submissions/{id}',
    })
    assert.deepEqual(parse('/v1/submissions/from_pdf'), { route: '/v1/submissions/from_pdf' })
    assert.deepEqual(parse('GET /v1/submissions/from_pdf'), { method: 'GET', route: '/v1/submissions/{id}' })
  })

  it('a whole URL or a query string: the path only', () => {
    assert.deepEqual(parse('GET https://api.example.eu/v1/submissions/sub_1?expand=x'), {
      method: 'GET',
      route: '/v1/submissions/{id}',
    })
    assert.deepEqual(parse('/v1/submissions?limit=3#top'), { route: '/v1/submissions' })
  })

  it('a path no route answers: the path itself', () => {
    assert.deepEqual(parse('GET /v1/nowhere'), { method: 'GET', path: '/v1/nowhere' })
  })

  it('422 invalid_request on route, saying how to write it, for no path or an unknown method', () => {
    for (const text of [
      'submissions',
      'FETCH /v1/submissions',
      'GET',
      'GET v1/x',
      'https://',
      'GET /v1/a b',
    ]) {
      assert.throws(
        () => parse(text),
        (error: unknown) =>
          error instanceof ApiError &&
          error.code === 'invalid_request' &&
          /route: .*`POST \/v1\/submissions`/.test(error.message),
        text,
      )
    }
  })
})
