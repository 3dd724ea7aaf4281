// Who may act in the console, in a real browser against the real server: a page of another origin
// posting a form and fetching with credentials is refused by the CSRF check (nothing made), and a
// sign-in link used in another tab, or past its 15 minutes, shows the 410 page (English, French).
// axe-core runs on every page opened; screenshots go to SHOTS.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../../test/browser.ts'
import { axe, check, openConsole, SHOTS, settled } from '../../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../../test/console/console-client.ts'
import type { TestApp } from '../../../test/harness.ts'
import { startTestApp } from '../../../test/harness.ts'
import { insertSignInLink, LINK_TTL_MS } from './sign-in-link-store.ts'

describe('who may act in the console, in a browser', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  const api = (method: 'GET', url: string) => t.request(keys.testKey, { method, url })

  before(async () => {
    // The console refuses writes from an origin other than PUBLIC_URL's: the app listens there.
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '100000' } })
    keys = await t.account('Acme Legal')
    admin = await signedInMember(t, keys.accountId, { email: 'ada@example.eu' })
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  async function go(page: Page, path: string): Promise<void> {
    await page.goto(`${base}/console${path}`)
    await settled(page)
  }

  it('CSRF: a page of another origin posting a form and a credentialed fetch is refused, nothing made', async () => {
    const evil = await foreignSite(base)
    try {
      const { context, page } = await openConsole(browser, base, admin)
      await go(page, '/templates')
      await axe(page, 'csrf-templates')
      const templatesBefore = (await api('GET', '/v1/templates?limit=100')).json().data.length
      const keysBefore = (await admin.request({ method: 'GET', url: '/console/api/keys' })).json().data.length
      const refusals = ['/v1/templates', '/console/api/keys'].map((path) =>
        page.waitForResponse((r) => r.url() === `${base}${path}` && r.request().method() === 'POST'),
      )
      await page.goto(evil.url)
      const [form, fetched] = await Promise.all(refusals)
      assert.equal(form!.status(), 403)
      assert.equal(fetched!.status(), 403)
      // The session cookie did go along (same site, another port): the refusal is the CSRF check's.
      assert.match((await form!.request().allHeaders()).cookie ?? '', /paraph_console=/)
      assert.equal((await api('GET', '/v1/templates?limit=100')).json().data.length, templatesBefore)
      const keysAfter = (await admin.request({ method: 'GET', url: '/console/api/keys' })).json().data.length
      assert.equal(keysAfter, keysBefore)
      await context.close()
    } finally {
      await evil.close()
    }
  })

  it('sign-in links: a link used in another tab, and one past its 15 minutes, show the 410 page', async () => {
    const member = await t.deps.db
      .selectFrom('members')
      .select(['id', 'account_id'])
      .where('email', '=', 'ada@example.eu')
      .executeTakeFirstOrThrow()
    const link = async () =>
      `${base}/console/sign-in/${await insertSignInLink(t.deps.db, t.clock, member, '127.0.0.1')}`

    const reused = await link()
    const { context, page } = await openConsole(browser, base)
    const second = await context.newPage()
    await page.goto(reused)
    await second.goto(reused)
    await page.getByRole('heading', { name: 'Sign in to Paraph' }).waitFor()
    assert.match(await page.locator('main').innerText(), /Acme Legal/)
    await check(page, 'sign-in-link-page', [375, 1280])
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${base}/console/templates`)
    await second.getByRole('button', { name: 'Sign in' }).click()
    await second.getByRole('heading', { name: 'This link has expired or was already used' }).waitFor()
    await check(second, 'sign-in-link-used', [375, 1280])
    const askAgain = second.getByRole('link', { name: 'Ask for a new link' })
    assert.equal(await askAgain.getAttribute('href'), '/console/sign-in')
    await context.close()

    const expired = await link()
    const french = await openConsole(browser, base, undefined, 'fr-FR')
    await french.page.goto(expired)
    await french.page.getByRole('button', { name: 'Se connecter' }).waitFor()
    await check(french.page, 'sign-in-link-page-fr', [375, 1280])
    t.clock.advance(LINK_TTL_MS)
    await french.page.getByRole('button', { name: 'Se connecter' }).click()
    await french.page.getByRole('heading', { name: 'Ce lien a expiré ou a déjà servi' }).waitFor()
    await check(french.page, 'sign-in-link-expired-fr', [375, 1280])
    const { context: late, page: lateTab } = await openConsole(browser, base)
    const answer = await lateTab.goto(expired)
    assert.equal(answer?.status(), 410)
    await lateTab.getByRole('heading', { name: 'This link has expired or was already used' }).waitFor()
    await check(lateTab, 'sign-in-link-expired', [375, 1280])
    await late.close()
    await french.context.close()
  })
})

/**
 * A site on another port of the loopback (same site, other origin: the browser sends the console's
 * SameSite=Lax cookie along) whose page posts a form to /v1/templates and fetches
 * /console/api/keys with credentials, as a forger would.
 */
async function foreignSite(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const html = `<!doctype html><html lang="en"><title>A prize for you</title>
<form id="forged" method="post" action="${target}/v1/templates" enctype="text/plain">
<input type="hidden" name='{"name":"forged","documents":[],"x":"' value='"}'>
</form>
<script>
fetch(${JSON.stringify(`${target}/console/api/keys`)}, { method: 'POST', credentials: 'include', mode: 'no-cors', body: '{}' })
  .finally(() => document.getElementById('forged').submit())
</script></html>`
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
