import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { prefersHtml } from './prefers-html.ts'

describe('prefersHtml', () => {
  it("true for browsers' navigations (Firefox, Chrome, Safari) and a bare text/html", () => {
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      'application/xhtml+xml',
      'TEXT/HTML',
      'application/json;q=0.5, text/html',
    ]) {
      assert.equal(prefersHtml(accept), true, accept)
    }
  })

  it('false for programs: no header, */*, JSON, JSON first or tied, HTML refused or unreadable', () => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/json, text/plain, */*',
      'application/json, text/html',
      'text/html;q=0.5, application/json',
      'text/html;q=0',
      'text/html;q=x',
      'text/*',
    ]) {
      assert.equal(prefersHtml(accept), false, String(accept))
    }
  })
})
