import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { type Created, createSubmission, eventsOf, everyTypeBody, submitterRow } from '../../test/signing.ts'
import { pickLanguage } from './page/texts.ts'

const pathOf = (url: string) => new URL(url).pathname

/** Width and height from a JPEG's start-of-frame marker (baseline or progressive). */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  assert.equal(jpeg.readUInt16BE(0), 0xffd8, 'a JPEG')
  for (let at = 2; at < jpeg.length; ) {
    const marker = jpeg.readUInt16BE(at)
    if (marker === 0xffc0 || marker === 0xffc2)
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) }
    at += 2 + jpeg.readUInt16BE(at + 2)
  }
  throw new Error('no start-of-frame marker')
}

describe('the signing page (GET /s/{slug}, GET /embed/{jwt})', () => {
  let t: TestApp
  let key: string
  let created: Created
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
    created = await createSubmission(t, key, await everyTypeBody())
  })
  after(() => t.close())

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers })

  it('answers HTML that loads its own script and style only, under a strict CSP, and may not be framed', async () => {
    const res = await get(pathOf(created.submitters[0]!.signing_url), { accept: 'text/html' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/)
    const csp = String(res.headers['content-security-policy'])
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      assert.ok(csp.includes(directive), `${directive} in ${csp}`)
    }
    // Other signers' images come from PUBLIC_URL's /files/….
    assert.ok(csp.includes(`img-src 'self' data: blob: ${new URL(t.config.publicUrl).origin}`), csp)
    assert.equal(res.headers['x-frame-options'], 'DENY')
    assert.equal(res.headers['referrer-policy'], 'no-referrer')
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.match(res.body, /<script src="\/signing-page\/assets\/page\.[A-Z0-9]+\.js" defer><\/script>/)
    assert.match(res.body, /<link rel="stylesheet" href="\/signing-page\/assets\/page\.[A-Z0-9]+\.css">/)
    assert.doesNotMatch(res.body, /https?:\/\//, 'nothing from outside Paraph')
    assert.doesNotMatch(res.body, /<script>(?!<)/, 'no inline script')
    assert.match(
      res.body,
      /<script type="application\/json" id="paraph-config">{"lang":"en","mode":"link"}<\/script>/,
    )
  })

  it('may be framed in embed mode', async () => {
    const res = await get(pathOf(created.submitters[0]!.embed_src))
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors \*/)
    assert.equal(res.headers['x-frame-options'], undefined)
    assert.match(res.body, /"mode":"embed"/)
  })

  it('changes nothing: a mail scanner fetching the link opens nothing', async () => {
    const before = await eventsOf(t, created.id)
    for (let i = 0; i < 3; i++) await get(pathOf(created.submitters[0]!.signing_url))
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'pending')
    assert.equal((await eventsOf(t, created.id)).length, before.length)
  })

  it('speaks French to a French browser', async () => {
    const res = await get(pathOf(created.submitters[0]!.signing_url), {
      'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8',
    })
    assert.match(res.body, /<html lang="fr">/)
    assert.match(res.body, /Chargement du document/)
  })

  it('speaks German and Spanish too (issue #20)', async () => {
    const url = pathOf(created.submitters[0]!.signing_url)
    const german = await get(url, { 'accept-language': 'de-AT, de;q=0.9' })
    assert.match(german.body, /<html lang="de">/)
    assert.match(german.body, /Das Dokument wird geladen/)
    assert.match(german.body, /"lang":"de"/)
    const spanish = await get(url, { 'accept-language': 'es-ES' })
    assert.match(spanish.body, /<html lang="es">/)
    assert.match(spanish.body, /Cargando el documento/)
  })

  it('lets a phone zoom: the viewport neither forbids nor caps pinch-zoom (issue #20)', async () => {
    const res = await get(pathOf(created.submitters[0]!.signing_url))
    const viewport = /<meta name="viewport" content="([^"]*)">/.exec(res.body)?.[1]
    assert.equal(viewport, 'width=device-width, initial-scale=1')
  })

  it('a dead link: an HTML page in the reader’s language for a person, the error envelope for a program', async () => {
    const person = await get('/s/NoSuchSlug000000000000', { accept: 'text/html', 'accept-language': 'fr' })
    assert.equal(person.statusCode, 404)
    assert.match(person.body, /Ce lien de signature n&#39;existe pas|Ce lien de signature n'existe pas/)
    assert.match(String(person.headers['content-security-policy']), /default-src 'none'/)
    const program = await get('/s/NoSuchSlug000000000000')
    assert.equal(program.statusCode, 404)
    assert.equal(errorOf(program).code, 'resource_not_found')
    const forged = await get('/embed/eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', { accept: 'text/html' })
    assert.equal(forged.statusCode, 401)
    assert.match(forged.body, /This signing link is not valid/)
  })

  it('serves its assets compressed and immutable, within the 150 KB budget', async (ctx) => {
    const page = await get(pathOf(created.submitters[0]!.signing_url))
    const script = /src="([^"]+\.js)"/.exec(page.body)![1]!
    const style = /href="([^"]+\.css)"/.exec(page.body)![1]!
    let total = Buffer.byteLength(page.body)
    for (const url of [script, style]) {
      const res = await get(url, { 'accept-encoding': 'gzip, br' })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['content-encoding'], 'br')
      assert.match(String(res.headers['cache-control']), /immutable/)
      total += res.rawPayload.length
    }
    ctx.diagnostic(`signing page HTML + JS + CSS, compressed: ${(total / 1024).toFixed(1)} KB`)
    assert.ok(total < 150 * 1024, `${total} bytes`)
    const plain = await get(script)
    assert.equal(plain.headers['content-encoding'], undefined)
    assert.match(String(plain.headers['content-type']), /^text\/javascript/)
    assert.equal((await get('/signing-page/assets/nothing.js')).statusCode, 404)
  })

  it('renders each document page as a JPEG of the asked width, and no page that does not exist', async () => {
    const base = pathOf(created.submitters[0]!.signing_url)
    const res = await get(`${base}/pages/0/2?w=800`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/jpeg')
    const jpeg = res.rawPayload
    const { width, height } = jpegSize(jpeg)
    assert.equal(width, 800)
    // Page 2 is Letter landscape (792 × 612): the image keeps its proportions.
    assert.ok(Math.abs(height - Math.round((800 * 612) / 792)) <= 1, `height ${height}`)
    const again = await get(`${base}/pages/0/2?w=800`)
    assert.ok(again.rawPayload.equals(jpeg), 'kept and served again')
    assert.equal(jpegSize((await get(`${base}/pages/0/1?w=1200`)).rawPayload).width, 1200)
    assert.equal((await get(`${base}/pages/0/3`)).statusCode, 404)
    assert.equal((await get(`${base}/pages/1/1`)).statusCode, 404)
    assert.equal((await get(`${base}/pages/0/1?w=123`)).statusCode, 422)
  })
})

describe('pickLanguage', () => {
  it('takes the highest-weighted language we have, English otherwise', () => {
    assert.equal(pickLanguage(undefined), 'en')
    assert.equal(pickLanguage('fr-FR,fr;q=0.9,en;q=0.8'), 'fr')
    // German and Spanish too.
    assert.equal(pickLanguage('de-DE, en;q=0.5, fr;q=0.7'), 'de')
    assert.equal(pickLanguage('it, es-MX;q=0.9, fr;q=0.7'), 'es')
    assert.equal(pickLanguage('it, pt'), 'en')
    assert.equal(pickLanguage('fr;q=0, en'), 'en')
  })
})
