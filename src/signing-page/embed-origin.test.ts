import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { embedOriginOf, parseAllowedOrigin } from './embed-origin.ts'

describe('parseAllowedOrigin', () => {
  it('takes an https origin, or http on localhost and 127.0.0.1, as the browser writes it', () => {
    for (const [raw, origin] of [
      ['https://app.example.com', 'https://app.example.com'],
      ['https://App.Example.COM:8443', 'https://app.example.com:8443'],
      ['https://app.example.com:443', 'https://app.example.com'],
      ['https://203.0.113.7', 'https://203.0.113.7'],
      ['https://[2001:db8::1]:9000', 'https://[2001:db8::1]:9000'],
      ['http://localhost:3000', 'http://localhost:3000'],
      ['http://127.0.0.1', 'http://127.0.0.1'],
    ]) {
      assert.equal(parseAllowedOrigin(raw!), origin)
    }
  })

  it('refuses anything else with invalid_request naming allowed_origin', () => {
    for (const raw of [
      '',
      '*',
      'null',
      'app.example.com',
      'http://app.example.com',
      'http://localhost.evil.example',
      'https://app.example.com/',
      'https://app.example.com/embed',
      'https://app.example.com?x=1',
      'https://app.example.com#top',
      'https://user@app.example.com',
      'https://app.example.com:99999',
      'javascript:alert(1)',
      'ftp://app.example.com',
      'https://app example.com',
    ]) {
      assert.throws(
        () => parseAllowedOrigin(raw),
        (e: unknown) =>
          e instanceof ApiError &&
          e.code === 'invalid_request' &&
          e.message.startsWith('allowed_origin: must be an origin'),
        raw,
      )
    }
  })
})

describe('embedOriginOf', () => {
  it("prefers the token's allowed_origin, then the Referer's http(s) origin, else null", () => {
    const claim = 'https://app.example.com'
    assert.equal(embedOriginOf(claim, 'https://other.example.org/page'), claim)
    assert.equal(
      embedOriginOf(undefined, 'https://crm.example.org:8443/deals/42?tab=sign'),
      'https://crm.example.org:8443',
    )
    assert.equal(embedOriginOf(undefined, 'http://localhost:5173/'), 'http://localhost:5173')
    for (const referer of [
      undefined,
      '',
      'not a url',
      'file:///home/me/page.html',
      'data:text/html,x',
      'about:blank',
    ]) {
      assert.equal(embedOriginOf(undefined, referer), null, String(referer))
    }
  })
})
