import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { DOCX_TYPE } from '../console/drafts/template-draft-schemas.ts'
import { deprecationHeaders } from './register-route.ts'

describe('errors: every 4xx/5xx is the spec envelope', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp({ routes: [...API_ROUTES, ...TEST_ROUTES] })
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const post = (payload: string, headers: Record<string, string> = {}) =>
    t.request(key, {
      method: 'POST',
      url: '/v1/test/widgets',
      payload,
      headers: { 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}`, ...headers },
    })

  it('404 resource_not_found for an unknown route, naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nope?x=1' })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(errorOf(res), {
      type: 'invalid_request_error',
      code: 'resource_not_found',
      message: 'Unknown route GET /v1/nope; the routes are listed at /openapi.yaml.',
    })
    assert.match(String(res.headers['request-id']), /^req_/)
  })

  it('404 for an unknown /v1 route with a key: the key is counted and the answer has X-RateLimit-*', async () => {
    const first = await t.request(key, { method: 'GET', url: '/v1/nope' })
    assert.equal(first.statusCode, 404)
    assert.equal(errorOf(first).code, 'resource_not_found')
    const second = await t.request(key, { method: 'POST', url: '/v1/submissions/x/y/z' })
    assert.equal(second.statusCode, 404)
    assert.equal(second.headers['x-ratelimit-limit'], first.headers['x-ratelimit-limit'])
    assert.equal(
      Number(second.headers['x-ratelimit-remaining']),
      Number(first.headers['x-ratelimit-remaining']) - 1,
      'each unknown-route call counts',
    )
    assert.ok(Number(second.headers['x-ratelimit-reset']) > 0)
  })

  it('401 for an unknown /v1 route with a wrong key; a plain 404 without any key', async () => {
    const wrong = await t.request(`sk_test_${'z'.repeat(32)}`, { method: 'GET', url: '/v1/nope' })
    assert.equal(wrong.statusCode, 401)
    assert.equal(errorOf(wrong).code, 'invalid_api_key')
    const none = await t.app.inject({ method: 'GET', url: '/v1/nope' })
    assert.equal(none.statusCode, 404)
    assert.equal(none.headers['x-ratelimit-limit'], undefined)
    const outside = await t.request(key, { method: 'GET', url: '/nope' })
    assert.equal(outside.statusCode, 404, 'outside /v1 no key is read')
    assert.equal(outside.headers['x-ratelimit-limit'], undefined)
  })

  it('400 envelope with a request id for a URL that cannot be decoded', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/events/%E0%A4%A' })
    assert.ok([400, 404].includes(res.statusCode), String(res.statusCode))
    assert.ok(errorOf(res).code)
    assert.match(String(res.headers['request-id']), /^req_/)
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
  })

  it('404 for a known path with another method', async () => {
    const res = await t.request(key, { method: 'DELETE', url: '/v1/health' })
    assert.equal(res.statusCode, 404)
    assert.equal(errorOf(res).code, 'resource_not_found')
  })

  it('400 invalid_json for garbage JSON, with rate-limit headers', async () => {
    const res = await post('{"name": "a",')
    assert.equal(res.statusCode, 400)
    assert.equal(errorOf(res).code, 'invalid_json')
    assert.equal(errorOf(res).type, 'invalid_request_error')
    assert.ok(res.headers['x-ratelimit-remaining'])
  })

  it('400 invalid_json for an empty JSON body', async () => {
    const res = await post('')
    assert.equal(res.statusCode, 400)
    assert.equal(errorOf(res).code, 'invalid_json')
  })

  it('422 invalid_request naming a "__proto__" key (prototype poisoning), at any depth', async () => {
    const res = await post('{"name":"a","__proto__":{"admin":true}}')
    assert.equal(res.statusCode, 422)
    assert.equal(errorOf(res).message, '__proto__: the key "__proto__" is not accepted.')
    const deep = await post('{"name":"a","tags":[{"label":"x","__proto__":{}}]}')
    assert.equal(errorOf(deep).message, 'tags[0].__proto__: the key "__proto__" is not accepted.')
  })

  it('422 for "constructor.prototype" in a strict object: an unknown key, never applied', async () => {
    const res = await post('{"name":"a","constructor":{"prototype":{"admin":true}}}')
    assert.equal(res.statusCode, 422)
    assert.equal(errorOf(res).message, 'constructor: is not an accepted field.')
    assert.equal(({} as { admin?: boolean }).admin, undefined)
  })

  it('413 request_too_large for an over-long body, with rate-limit headers', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(1_100_000) }))
    assert.equal(res.statusCode, 413)
    assert.equal(errorOf(res).code, 'request_too_large')
    assert.match(errorOf(res).message, /1048576 bytes/)
    assert.ok(res.headers['x-ratelimit-limit'])
  })

  it('415 unsupported_content_type for a non-JSON body', async () => {
    const res = await post('name=a', { 'content-type': 'application/x-www-form-urlencoded' })
    assert.equal(res.statusCode, 415)
    assert.equal(errorOf(res).code, 'unsupported_content_type')
  })

  it('415 for the body types only console routes take (a form, a raw PDF) on any other route', async () => {
    for (const contentType of ['application/x-www-form-urlencoded', 'application/pdf']) {
      const res = await post('%PDF-1.7 name=a', { 'content-type': contentType })
      assert.equal(res.statusCode, 415, contentType)
      assert.equal(errorOf(res).code, 'unsupported_content_type')
    }
  })

  it("415 for the editor's HTML and DOCX uploads on any route but the template draft's", async () => {
    const types = ['text/html; charset=utf-8', DOCX_TYPE]
    for (const contentType of types) {
      const res = await post('<p>{{Name;role=A}}</p>', { 'content-type': contentType })
      assert.equal(res.statusCode, 415, contentType)
      assert.equal(errorOf(res).code, 'unsupported_content_type')
    }
  })

  it('422 invalid_request naming the first violation by path, in the message and as param, with rate-limit headers', async () => {
    const res = await post(JSON.stringify({ name: 'a', tags: [{ label: 'ok' }, { label: 'too long' }] }))
    assert.equal(res.statusCode, 422)
    assert.deepEqual(errorOf(res), {
      type: 'invalid_request_error',
      code: 'invalid_request',
      message: 'tags[1].label: must be at most 5 characters.',
      param: 'tags[1].label',
    })
    assert.ok(res.headers['x-ratelimit-remaining'])
  })

  it('422 names the field as param for a missing field, an unknown one and a refused key', async () => {
    const cases: [string, string][] = [
      [JSON.stringify({ tags: [] }), 'name'],
      [JSON.stringify({ name: 'a', tags: [{ label: 'ok', colour: 'red' }] }), 'tags[0].colour'],
      ['{"name":"a","tags":[{"label":"x","__proto__":{}}]}', 'tags[0].__proto__'],
    ]
    for (const [body, param] of cases) {
      const error = errorOf(await post(body))
      assert.equal(error.param, param, body)
      assert.ok(error.message.startsWith(`${param}: `), error.message)
    }
  })

  it('400 invalid_id names the path parameter as param', async () => {
    const res = await t.request(key, { method: 'GET', url: '/v1/test/widgets/sub_short' })
    assert.equal(errorOf(res).param, 'id')
  })

  it('no param on errors about no one field: unknown route, bad JSON, too large, not an object', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/v1/nope' }),
      await post('{"name": "a",'),
      await post(JSON.stringify({ name: 'x'.repeat(1_100_000) })),
      await post('[1,2]'),
    ]
    for (const res of answers) {
      assert.ok(res.statusCode >= 400, res.body)
      assert.equal('param' in errorOf(res), false, res.body)
    }
  })

  it('422 for mass assignment: unknown keys are refused, never applied', async () => {
    for (const field of ['status', 'id', 'completed_at', 'account_id', 'constructor']) {
      const res = await post(JSON.stringify({ name: 'a', [field]: 'x' }))
      assert.equal(res.statusCode, 422, field)
      assert.equal(errorOf(res).message, `${field}: is not an accepted field.`)
    }
  })

  it('422 when the body is not an object', async () => {
    const res = await post('[1,2]')
    assert.equal(res.statusCode, 422)
    assert.equal(errorOf(res).message, 'body: must be an object.')
  })

  it('400 invalid_id for a malformed path id, before the handler runs', async () => {
    for (const bad of ['sub_short', `tpl_${'a'.repeat(24)}`, `sub_${'a'.repeat(23)}!`, '%20']) {
      const res = await t.request(key, { method: 'GET', url: `/v1/test/widgets/${bad}` })
      assert.equal(res.statusCode, 400, bad)
      assert.equal(errorOf(res).code, 'invalid_id')
      assert.ok(res.headers['x-ratelimit-limit'])
    }
    const ok = await t.request(key, { method: 'GET', url: `/v1/test/widgets/sub_${'a'.repeat(24)}` })
    assert.equal(ok.statusCode, 200)
  })

  it('500 handler_error with a request id, logged with its stack, leaking nothing', async () => {
    const res = await t.request(key, { method: 'GET', url: '/v1/test/explode' })
    assert.equal(res.statusCode, 500)
    const error = errorOf(res)
    assert.equal(error.type, 'api_error')
    assert.equal(error.code, 'handler_error')
    assert.ok(error.message.includes(String(res.headers['request-id'])))
    assert.ok(!res.body.includes('secret internal detail'))
    assert.ok(!res.body.includes('.ts'))
    const logged = t.logs.entries().find((e) => e.msg === 'request failed')
    assert.ok(logged, 'the failure is logged')
    assert.equal(logged.request_id, res.headers['request-id'])
    assert.match(JSON.stringify(logged.err), /secret internal detail.*at /s)
  })

  const assertGeneric500 = async (url: string) => {
    const res = await t.request(key, { method: 'GET', url })
    assert.equal(res.statusCode, 500)
    const error = errorOf(res)
    assert.deepEqual([error.type, error.code], ['api_error', 'handler_error'])
    assert.ok(error.message.includes(String(res.headers['request-id'])), error.message)
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    const logged = t.logs
      .entries()
      .filter((e) => e.request_id === res.headers['request-id'] && e.level === 50)
    assert.equal(logged.length, 1, 'exactly one error line for the request')
    return { res, logged: logged[0]! }
  }

  it('500 envelope and one error line when something that is not an Error is thrown', async () => {
    const { logged } = await assertGeneric500('/v1/test/throw-odd?kind=null')
    assert.match(JSON.stringify(logged.err), /a non-Error was thrown: null/)
  })

  it('500 envelope, not Fastify’s fallback, when reading the thrown value itself throws', async () => {
    const { logged } = await assertGeneric500('/v1/test/throw-odd?kind=trap')
    assert.match(JSON.stringify(logged.err), /could not map an error/)
  })

  it('500 envelope and one error line with the stack when the response cannot be serialized', async () => {
    const { res, logged } = await assertGeneric500('/v1/test/bad-response')
    assert.ok(!res.body.includes('"name"'), 'the serializer’s message does not leak')
    assert.match(JSON.stringify(logged.err), /name.*at /s)
  })

  it('sets Deprecation, Sunset and their Link on a deprecated route, errors included', async () => {
    const link =
      '<https://paraph.example/changelog#old>; rel="deprecation", <https://paraph.example/changelog#old>; rel="sunset"'
    const ok = await t.request(key, { method: 'GET', url: '/v1/test/old' })
    assert.equal(ok.statusCode, 200)
    // RFC 9745: a structured-field date, `@` and Unix seconds (2026-11-01T00:00:00Z).
    assert.equal(ok.headers.deprecation, '@1793491200')
    assert.equal(ok.headers.sunset, 'Tue, 01 Jun 2027 00:00:00 GMT')
    assert.equal(ok.headers.link, link)
    const denied = await t.app.inject({ method: 'GET', url: '/v1/test/old' })
    assert.equal(denied.statusCode, 401)
    assert.equal(denied.headers.deprecation, '@1793491200')
    assert.equal(denied.headers.sunset, 'Tue, 01 Jun 2027 00:00:00 GMT')
    assert.equal(denied.headers.link, link)
    const current = await t.request(key, { method: 'GET', url: '/v1/health' })
    assert.equal(current.headers.sunset, undefined)
    assert.equal(current.headers.deprecation, undefined)
  })

  it('a deprecated route without a link sends no Link; a date that is not one stops registration', () => {
    const headers = deprecationHeaders({ since: '2026-11-01T12:00:00Z', sunset: '2027-06-01' })
    assert.deepEqual(headers, { deprecation: '@1793534400', sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' })
    assert.throws(
      () => deprecationHeaders({ since: '2026-13-45', sunset: '2027-06-01' }),
      /not an ISO 8601 date/,
    )
  })
})
