// Query strings are client text: a parameter named like a member of Object.prototype, a number
// written in another spelling, or U+0000 must be refused in the envelope, never answered with a
// 500 (issue #10: `?toString=1` was a 500 with Fastify's own body on every list route).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const LISTS = ['/v1/templates', '/v1/submissions', '/v1/submitters', '/v1/events']
const PROTOTYPE_NAMES = [
  'toString',
  'constructor',
  '__proto__',
  '__proto__[x]',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'propertyIsEnumerable',
  'toLocaleString',
]

describe('query strings: strict and prototype-safe', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const get = (url: string) => t.request(key, { method: 'GET', url })

  it('422 invalid_request naming a parameter called like an Object.prototype member, on every list', async () => {
    for (const list of LISTS) {
      for (const name of PROTOTYPE_NAMES) {
        const res = await get(`${list}?${name}=1`)
        assert.equal(res.statusCode, 422, `${list}?${name}=1 → ${res.body}`)
        assert.deepEqual(errorOf(res), {
          type: 'invalid_request_error',
          code: 'invalid_request',
          message: `${name}: is not an accepted field.`,
          param: name,
        })
        assert.match(String(res.headers['request-id']), /^req_/)
      }
    }
    assert.equal(
      t.logs.entries().filter((e) => e.level === 50).length,
      0,
      'a refusal is not an error in the log',
    )
  })

  it('422 invalid_pagination for a limit not written as plain decimal digits', async () => {
    for (const spelling of ['5.0', '1e1', '+5', '0x5', ' 5', '5 ', '', '05.']) {
      const res = await get(`/v1/submissions?limit=${encodeURIComponent(spelling)}`)
      assert.equal(res.statusCode, 422, `limit=${spelling}: ${res.body}`)
      assert.equal(errorOf(res).code, 'invalid_pagination')
      assert.match(errorOf(res).message, /^limit: must be a whole number written in decimal digits/)
    }
    for (const [spelling, problem] of [
      ['0', /limit: must be >= 1/],
      ['101', /limit: must be <= 100/],
    ] as const) {
      const res = await get(`/v1/events?limit=${spelling}`)
      assert.equal(errorOf(res).code, 'invalid_pagination')
      assert.match(errorOf(res).message, problem)
    }
    const fine = await get('/v1/templates?limit=5')
    assert.equal(fine.statusCode, 200, fine.body)
  })

  it('422 with the parameter’s own code for U+0000 in a value, on both engines', async () => {
    const res = await get('/v1/submitters?email=a%00b@example.eu')
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(errorOf(res), {
      type: 'invalid_request_error',
      code: 'invalid_email',
      message: 'email: must not contain the character U+0000.',
      param: 'email',
    })
    const status = await get('/v1/submissions?status=sent%00')
    assert.equal(errorOf(status).code, 'invalid_status')
  })

  it('200 for a repeated known parameter only when the schema allows it, never a 500', async () => {
    const res = await get('/v1/submissions?limit=1&limit=2')
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(errorOf(res).code, 'invalid_pagination')
  })
})
