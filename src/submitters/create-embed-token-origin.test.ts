// Through the real app: the embed page's messages go to one origin — the embed
// token's `allowed_origin`, else the Referer's origin, else none — and an embed JWT respelled in
// non-canonical base64url is refused like any other altered token.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type CreatedSubmitter,
  createSubmission,
  everyTypeBody,
  refused,
  signer,
} from '../../test/signing.ts'

describe('embed origin and token spelling (issue #20)', () => {
  let t: TestApp
  let key: string
  let who: CreatedSubmitter
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
    who = (await createSubmission(t, key, await everyTypeBody(['first']))).submitters[0]!
  })
  after(() => t.close())

  const issue = (body: unknown) =>
    t.request(key, {
      method: 'POST',
      url: `/v1/submitters/${who.id}/embed_token`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
  const tokenOf = (embedSrc: string) => new URL(embedSrc).pathname.split('/').pop()!
  /** The page's `#paraph-config`, as the page script reads it. */
  async function pageConfig(token: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({ method: 'GET', url: `/embed/${token}`, headers })
    assert.equal(res.statusCode, 200, res.body)
    const json = /<script type="application\/json" id="paraph-config">([^<]*)<\/script>/.exec(res.body)
    assert.ok(json, 'the page carries its config')
    return JSON.parse(json[1]!) as Record<string, unknown>
  }

  describe('embed_origin in the page config', () => {
    it("is the token's allowed_origin (as the browser writes it), whatever the Referer says", async () => {
      const res = await issue({ allowed_origin: 'https://CRM.example.com:443' })
      assert.equal(res.statusCode, 200, res.body)
      const token = tokenOf(res.json().embed_src)
      const config = await pageConfig(token, { referer: 'https://elsewhere.example.org/x' })
      assert.equal(config.embed_origin, 'https://crm.example.com')
      assert.equal(config.mode, 'embed')
      // The token still opens the signer's form.
      const form = await signer(t, { ...who, embed_src: res.json().embed_src }, 'form', undefined, 'embed')
      assert.equal(form.statusCode, 200, form.body)
    })

    it("is the Referer's origin for a token without allowed_origin (the creation's embed_src)", async () => {
      const config = await pageConfig(tokenOf(who.embed_src), {
        referer: 'https://app.example.eu:8443/deals/42?tab=sign',
      })
      assert.equal(config.embed_origin, 'https://app.example.eu:8443')
    })

    it('is null without allowed_origin and without an http(s) Referer', async () => {
      assert.equal((await pageConfig(tokenOf(who.embed_src))).embed_origin, null)
      const fromFile = await pageConfig(tokenOf(who.embed_src), { referer: 'file:///tmp/page.html' })
      assert.equal(fromFile.embed_origin, null)
    })

    it('is absent from a signing-URL page (never framed)', async () => {
      const res = await t.app.inject({ method: 'GET', url: new URL(who.signing_url).pathname })
      assert.match(res.body, /id="paraph-config">\{"lang":"en","mode":"link"\}</)
    })
  })

  describe('errors', () => {
    it('422 invalid_request naming allowed_origin for anything but an https (or local http) origin', async () => {
      for (const allowed_origin of [
        '*',
        'https://app.example.com/embed',
        'http://app.example.com',
        'app.example.com',
        'https://app.example.com?x',
        '',
      ]) {
        refused(await issue({ allowed_origin }), 422, 'invalid_request', /^allowed_origin: must be an origin/)
      }
      refused(await issue({ allowed_origin: 42 }), 422, 'invalid_request', /^allowed_origin: /)
      refused(await issue({ allowed_origin: `https://${'a'.repeat(300)}.example` }), 422, 'invalid_request')
    })
  })

  describe('security', () => {
    it('401 invalid_signing_token for a genuine token respelled (trailing "=", unused low bits changed); the genuine one works', async () => {
      const token = tokenOf(who.embed_src)
      const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      const last = ALPHABET.indexOf(token.at(-1)!)
      const respellings = [`${token}=`, `${token.slice(0, -1)}${ALPHABET[last ^ 1]}`]
      for (const respelled of respellings) {
        const as = { ...who, embed_src: `http://127.0.0.1/embed/${respelled}` }
        refused(await signer(t, as, 'form', undefined, 'embed'), 401, 'invalid_signing_token')
        refused(await signer(t, as, 'open', undefined, 'embed'), 401, 'invalid_signing_token')
        const page = await t.app.inject({
          method: 'GET',
          url: `/embed/${respelled}`,
          headers: { accept: 'text/html' },
        })
        assert.equal(page.statusCode, 401)
      }
      assert.equal((await signer(t, who, 'form', undefined, 'embed')).statusCode, 200)
    })
  })
})
