import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type FuzzRequest, preview, queryString, splice } from './fuzz-request.ts'

describe('fuzz-request: raw bodies and queries', () => {
  it('splices raw text in place of a node: what JSON.stringify never writes', () => {
    assert.equal(splice({ a: { b: 1 } }, ['a', 'b'], '1e309'), '{"a":{"b":1e309}}')
    assert.equal(splice([1, 2], [1], '[[[]]]'), '[1,[[[]]]]')
  })

  it('splices a key, first, into the object at a path: "__proto__" stays in the text', () => {
    assert.equal(splice({ a: { b: 1 } }, ['a'], '{"x":1}', '__proto__'), '{"a":{"__proto__":{"x":1},"b":1}}')
    assert.equal(splice({}, [], '1', 'constructor'), '{"constructor":1}')
  })

  it('splices bytes that are not UTF-8 as bytes', () => {
    const out = splice({ s: 'x' }, ['s'], Buffer.from([0x22, 0xff, 0x22]))
    assert.deepEqual(
      out,
      Buffer.concat([Buffer.from('{"s":'), Buffer.from([0x22, 0xff, 0x22]), Buffer.from('}')]),
    )
  })

  it('writes arrays as repeated keys and objects as key[sub]', () => {
    assert.equal(queryString({ a: [1, 2], b: { c: 'x y' }, d: null }), 'a=1&a=2&b%5Bc%5D=x%20y&d=')
  })

  it('previews a request with long strings cut and invalid bytes shown', () => {
    const request: FuzzRequest = {
      family: 'hostile',
      note: 'test',
      method: 'POST',
      url: '/v1/templates',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ pdf: 'A'.repeat(1_000_000), nul: '\u0000' }),
    }
    const text = preview(request)
    assert.match(text, /AAAA…\(1000000 characters\)/)
    assert.match(text, /\\\\u0000/)
    assert.ok(text.length < 1000)
    assert.match(preview({ ...request, payload: Buffer.from([0x7b, 0xff, 0x7d]) }), /not UTF-8: 7bff7d/)
  })
})
