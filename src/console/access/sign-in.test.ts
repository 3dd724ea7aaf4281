import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { errorOf } from '../../../test/harness.ts'
import { type MailTestApp, startMailApp } from '../../../test/mail.ts'
import { insertMember } from '../../accounts/member-store.ts'
import { CONSOLE_CSP } from '../shell/console-headers.ts'
import { LINK_TTL_MS, REQUEST_WINDOW_MS } from './sign-in-link-store.ts'

const LINK = /http:\/\/127\.0\.0\.1:8080(\/console\/sign-in\/[0-9A-Za-z]{43})/g

describe('console sign-in links', () => {
  let m: MailTestApp
  let acme: string
  let beta: string
  let ip = 0
  /** Each request from its own client address, so only the per-address limit is at play. */
  const ask = (email: string, extra: Record<string, unknown> = {}, remoteAddress = `10.0.0.${++ip}`) =>
    m.t.app.inject({
      method: 'POST',
      url: '/console/api/sign_in_links',
      payload: { email, ...extra },
      remoteAddress,
    })
  /** The sign-in paths of the newest mail to `email`. */
  const linksIn = (email: string) => {
    const mail = m.smtp.to(email).at(-1)
    assert.ok(mail, `a mail to ${email}`)
    return { mail, paths: [...new Set([...mail.text.matchAll(LINK)].map((x) => x[1]!))] }
  }
  /** As a browser opens the link or submits the page's form (Accept: text/html). */
  const browse = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
    m.t.app.inject({
      method,
      url,
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', ...headers },
    })
  const cookieOf = (res: LightMyRequestResponse) =>
    /^paraph_console=([0-9A-Za-z]{43});/.exec(String(res.headers['set-cookie']))?.[1]

  before(async () => {
    m = await startMailApp()
    acme = (await m.t.account('Acme')).accountId
    beta = (await m.t.account('Beta')).accountId
    await insertMember(m.t.deps.db, m.t.deps, { accountId: acme, email: 'Ada@Example.eu', role: 'admin' })
    await insertMember(m.t.deps.db, m.t.deps, { accountId: acme, email: 'multi@example.eu', role: 'editor' })
    await insertMember(m.t.deps.db, m.t.deps, { accountId: beta, email: 'multi@example.eu', role: 'admin' })
  })
  after(() => m.close())

  describe('happy', () => {
    it('202 and a mail whose link signs in: GET shows a button and consumes nothing, POST opens the session', async () => {
      const res = await ask('ADA@example.eu')
      assert.equal(res.statusCode, 202)
      assert.deepEqual(res.json(), { object: 'sign_in_link_request', email: 'ada@example.eu' })
      assert.equal(res.headers['cache-control'], 'no-store')
      await m.work()
      const { mail, paths } = linksIn('ada@example.eu')
      assert.equal(paths.length, 1)
      assert.match(mail.subject, /sign-in link/)
      assert.match(mail.text, /Acme/)
      const path = paths[0]!

      for (let i = 0; i < 2; i++) {
        const page = await browse('GET', path)
        assert.equal(page.statusCode, 200)
        assert.match(String(page.headers['content-type']), /^text\/html/)
        assert.match(page.body, /<form method="post" action="\/console\/sign-in\/[0-9A-Za-z]{43}">/)
        assert.match(page.body, /Acme/)
        assert.doesNotMatch(page.body, /<script|<style|style=/)
        assert.match(page.body, /<strong class="account-name">Acme<\/strong>/)
        assert.match(page.body, /<button type="submit" class="button primary block">Sign in<\/button>/)
        assert.equal(page.headers['content-security-policy'], CONSOLE_CSP)
        assert.equal(page.headers['cache-control'], 'no-store')
      }

      const signIn = await m.t.app.inject({
        method: 'POST',
        url: path,
        headers: { origin: 'http://127.0.0.1:8080' },
      })
      assert.equal(signIn.statusCode, 303)
      assert.equal(signIn.headers.location, '/console/')
      assert.match(
        String(signIn.headers['set-cookie']),
        /^paraph_console=[0-9A-Za-z]{43}; Path=\/; Max-Age=604800; HttpOnly; SameSite=Lax$/,
      )
      const cookie = `paraph_console=${cookieOf(signIn)}`
      const session = await m.t.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie },
      })
      assert.equal(session.statusCode, 200)
      assert.equal(session.json().account.id, acme)
      assert.equal(session.json().member.email, 'ada@example.eu')
      assert.equal(session.json().environment, 'test')
      const health = await m.t.app.inject({ method: 'GET', url: '/v1/health', headers: { cookie } })
      assert.equal(health.json().account_id, acme)
      const members = await m.t.deps.db
        .selectFrom('members')
        .select('last_sign_in_at')
        .where('email', '=', 'ada@example.eu')
        .execute()
      assert.deepEqual(members, [{ last_sign_in_at: m.t.clock.now().toISOString() }])

      const reused = await browse('POST', path)
      assert.equal(reused.statusCode, 410)
      assert.match(reused.body, /expired or was already used/)
      assert.match(reused.body, /href="\/console\/sign-in"/)
      // Styled by the console's own style sheet, which the console serves (the CSP allows no inline).
      const sheet = /<link rel="stylesheet" href="(\/console\/assets\/[^"]+\.css)">/.exec(reused.body)?.[1]
      assert.ok(sheet, reused.body)
      const css = await m.t.app.inject({ method: 'GET', url: sheet })
      assert.equal(css.statusCode, 200)
      assert.match(String(css.headers['content-type']), /^text\/css/)
      assert.match(css.body, /\.sign-in-card/)
      assert.equal((await browse('GET', path)).statusCode, 410)
      // A program (no Accept: text/html) gets the usual envelope.
      const program = await m.t.app.inject({ method: 'POST', url: path })
      assert.equal(program.statusCode, 410)
      assert.equal(errorOf(program).code, 'sign_in_link_expired')
    })

    it('one mail with one link per account, each named, each opening its own account', async () => {
      assert.equal((await ask('multi@example.eu', { language: 'fr' })).statusCode, 202)
      await m.work()
      const { mail, paths } = linksIn('multi@example.eu')
      assert.equal(m.smtp.to('multi@example.eu').length, 1)
      assert.equal(paths.length, 2)
      assert.match(mail.subject, /console Paraph/)
      assert.match(mail.text, /Acme/)
      assert.match(mail.text, /Beta/)
      const accounts = []
      for (const path of paths) {
        const res = await m.t.app.inject({ method: 'POST', url: path })
        assert.equal(res.statusCode, 303)
        const session = await m.t.app.inject({
          method: 'GET',
          url: '/console/api/session',
          headers: { cookie: `paraph_console=${cookieOf(res)}` },
        })
        accounts.push([session.json().account.name, session.json().member.role])
      }
      assert.deepEqual(accounts.sort(), [
        ['Acme', 'editor'],
        ['Beta', 'admin'],
      ])
    })

    it('202 the same for an address that is no member, and no mail', async () => {
      const res = await ask('nobody@example.eu')
      assert.equal(res.statusCode, 202)
      assert.deepEqual(res.json(), { object: 'sign_in_link_request', email: 'nobody@example.eu' })
      await m.work()
      assert.equal(m.smtp.to('nobody@example.eu').length, 0)
    })

    it('the pages speak French to a French browser', async () => {
      const res = await browse('GET', `/console/sign-in/${'a'.repeat(43)}`, {
        'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5',
      })
      assert.equal(res.statusCode, 404)
      assert.match(res.body, /<html lang="fr">/)
      assert.match(res.body, /Lien de connexion inconnu/)
    })
  })

  describe('errors', () => {
    it('410 for a link past its 15 minutes, on GET and POST', async () => {
      await ask('ada@example.eu')
      await m.work()
      const path = linksIn('ada@example.eu').paths[0]!
      m.t.clock.advance(LINK_TTL_MS)
      assert.equal((await browse('GET', path)).statusCode, 410)
      const res = await browse('POST', path)
      assert.equal(res.statusCode, 410)
      assert.equal(res.headers['set-cookie'], undefined)
    })

    it('404 for an unknown or malformed token', async () => {
      for (const token of ['b'.repeat(43), 'short']) {
        const res = await browse('POST', `/console/sign-in/${token}`)
        assert.equal(res.statusCode, 404)
        assert.match(res.body, /Unknown sign-in link/)
        const program = await m.t.app.inject({ method: 'GET', url: `/console/sign-in/${token}` })
        assert.equal(errorOf(program).code, 'resource_not_found')
      }
    })

    it('403 and no session when the sign-in form comes from a foreign Origin', async () => {
      await ask('ada@example.eu')
      await m.work()
      const path = linksIn('ada@example.eu').paths[0]!
      const res = await m.t.app.inject({
        method: 'POST',
        url: path,
        headers: { origin: 'https://evil.example' },
      })
      assert.equal(res.statusCode, 403)
      assert.equal(res.headers['set-cookie'], undefined)
      assert.equal(
        (await m.t.app.inject({ method: 'POST', url: path })).statusCode,
        303,
        'the link is still usable',
      )
    })

    it('202 for the xn-- spelling of a member added as zoe@müller-bau.de: the same person, one link (docs/api.md#e-mail-addresses)', async () => {
      await insertMember(m.t.deps.db, m.t.deps, {
        accountId: beta,
        email: 'Zoe@Müller-Bau.de',
        role: 'editor',
      })
      const res = await ask('ZOE@xn--mller-bau-q9a.de')
      assert.equal(res.statusCode, 202, res.body)
      assert.deepEqual(res.json(), { object: 'sign_in_link_request', email: 'zoe@xn--mller-bau-q9a.de' })
      await m.work()
      // The test server shows the envelope's xn-- domain in Unicode.
      assert.equal(linksIn('zoe@müller-bau.de').paths.length, 1)
    })

    it('422 invalid_request for a body that is not an address', async () => {
      const res = await ask('not an address')
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'invalid_request')
    })
  })

  describe('rate limits', () => {
    it('429 rate_limit_exceeded with Retry-After on the 6th request for one address in 15 minutes', async () => {
      m.t.clock.advance(REQUEST_WINDOW_MS)
      const before = m.smtp.to('ada@example.eu').length
      for (let i = 0; i < 5; i++) assert.equal((await ask('ada@example.eu')).statusCode, 202)
      m.t.clock.advance(60_000)
      const refused = await ask('Ada@example.eu')
      assert.equal(refused.statusCode, 429)
      assert.equal(errorOf(refused).code, 'rate_limit_exceeded')
      assert.equal(refused.headers['retry-after'], String(REQUEST_WINDOW_MS / 1000 - 60))
      await m.work()
      assert.equal(m.smtp.to('ada@example.eu').length, before + 5, 'no mail for the refused request')
      m.t.clock.advance(REQUEST_WINDOW_MS - 60_000)
      assert.equal((await ask('ada@example.eu')).statusCode, 202, 'allowed again once the window has passed')
    })

    it('429 on the 31st request from one client address in 15 minutes, whatever the addresses', async () => {
      m.t.clock.advance(REQUEST_WINDOW_MS)
      for (let i = 0; i < 30; i++)
        assert.equal((await ask(`n${i}@example.eu`, {}, '10.9.9.9')).statusCode, 202)
      const refused = await ask('other@example.eu', {}, '10.9.9.9')
      assert.equal(refused.statusCode, 429)
      assert.equal(errorOf(refused).code, 'rate_limit_exceeded')
      assert.equal((await ask('other@example.eu', {}, '10.9.9.10')).statusCode, 202)
    })
  })
})
