// The console in a real browser (Debian's chromium through playwright-core) against the real
// server: the sign-in screen, the templates list, the test/live switch changing the data, a
// submission and its timeline, an API key created and revoked, a webhook endpoint to a real local
// receiver with a test event and a delivery, request logs, usage, members. axe-core runs on every
// page (no violation allowed) and every page is photographed at 1280 and 768 px into SHOTS.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser, tabTo } from '../../test/browser.ts'
import { check as checkAt, openConsole, SHOTS, settled } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { createTemplateFor } from '../../test/documents.ts'
import { SmtpTestServer } from '../../test/fixtures/smtp.ts'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import type { TestApp } from '../../test/harness.ts'
import { startTestApp } from '../../test/harness.ts'
import { createSubmission, everyTypeBody } from '../../test/signing.ts'
import { RETRY_SCHEDULE } from '../../test/webhooks.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { WebhookDispatcher } from '../webhooks/dispatcher.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

describe('the console in a browser', () => {
  let t: TestApp
  let keys: Keys
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let receiver: WebhookReceiver
  let smtp: SmtpTestServer
  let submissionId: string
  const work = async () => {
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    await new WebhookDispatcher(t.deps).drain()
  }

  before(async () => {
    // The console refuses writes from an origin other than PUBLIC_URL's: the app listens there.
    smtp = await SmtpTestServer.start()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({
      env: {
        PUBLIC_URL: base,
        SMTP_URL: smtp.url,
        ALLOW_PRIVATE_NETWORK_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE.join(','),
        RATE_LIMIT_TEST: '100000',
      },
    })
    keys = await t.account('Acme Legal')
    await createTemplateFor(t, keys.testKey, { name: 'Test NDA', slug: 'test-nda' })
    await createTemplateFor(t, keys.liveKey, { name: 'Live employment contract' })
    submissionId = (await createSubmission(t, keys.testKey, await everyTypeBody())).id
    admin = await signedInMember(t, keys.accountId, { email: 'ada@example.eu' })
    receiver = await WebhookReceiver.start()
    receiver.otherwise = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from the receiver')
    }
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await receiver?.close()
    await smtp?.stop()
    await t?.close()
  })

  /** A browser context, signed in with the member's cookie (`admin` unless another is given) unless `signedIn` is false. */
  const open = (signedIn = true, member?: ConsoleClient) =>
    openConsole(browser, base, signedIn ? (member ?? admin) : undefined)

  /** axe-core finds nothing; then a screenshot at 1280 and 768 px (the actions test covers 375). */
  const check = (page: Page, name: string) => checkAt(page, name, [1280, 768])

  async function go(page: Page, path: string): Promise<void> {
    await page.goto(`${base}/console${path}`)
    await settled(page)
  }

  it('signs in through the mailed link: ask on the sign-in screen, open the link, press "Sign in"', async () => {
    const { context, page } = await open(false)
    await page.goto(`${base}/console/`)
    await page.getByRole('heading', { name: 'Sign in to Paraph' }).waitFor()
    await check(page, 'sign-in')
    await page.getByLabel('E-mail address').fill('Ada@Example.eu')
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
    assert.match(await page.locator('main').innerText(), /ada@example\.eu/)
    await check(page, 'sign-in-sent')

    await work()
    const mail = smtp.to('ada@example.eu').at(-1)
    assert.ok(mail, 'the sign-in mail')
    const link = new RegExp(`${base}/console/sign-in/[0-9A-Za-z]+`).exec(mail.text)?.[0]
    assert.ok(link, mail.text)
    await page.goto(link)
    await check(page, 'sign-in-link')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Test NDA', { exact: true }).waitFor()
    assert.equal(page.url(), `${base}/console/templates`)
    assert.match(await page.locator('.topbar').innerText(), /ada@example\.eu/)

    // Signing out ends the session: the sign-in screen again, and a reload stays there.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in to Paraph' }).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Sign in to Paraph' }).waitFor()
    await context.close()
  })

  it('templates, then the live switch: the whole console tinted and the live data shown, then back', async () => {
    const { context, page } = await open()
    await page.goto(`${base}/console/`)
    await page.waitForURL(`${base}/console/templates`)
    await settled(page)
    await page.getByText('Test NDA', { exact: true }).waitFor()
    assert.equal(await page.getByText('Live employment contract').count(), 0)
    assert.match(await page.locator('.topbar').innerText(), /Acme Legal[\s\S]*ada@example\.eu/)
    await check(page, 'templates')

    await page.getByRole('button', { name: 'Live', exact: true }).click()
    await page.getByText('Live employment contract', { exact: true }).waitFor()
    assert.equal(await page.getByText('Test NDA').count(), 0)
    assert.equal(
      await page.getByRole('button', { name: 'Live', exact: true }).getAttribute('aria-pressed'),
      'true',
    )
    assert.ok(await page.evaluate('document.body.classList.contains("env-live")'))
    await page.getByText('Live data.').waitFor()
    await check(page, 'templates-live')

    await page.getByRole('button', { name: 'Test', exact: true }).click()
    await page.getByText('Test NDA', { exact: true }).waitFor()
    assert.ok(!(await page.evaluate('document.body.classList.contains("env-live")')))

    await page.getByRole('link', { name: 'New template' }).click()
    await page.getByRole('heading', { name: 'Upload a PDF' }).waitFor()
    await check(page, 'template-new')
    await context.close()
  })

  it('submissions: the list with its signers, the detail with downloads and the timeline', async () => {
    const { context, page } = await open()
    await go(page, '/submissions')
    await page.getByText('0 of 2 signed').waitFor()
    await check(page, 'submissions')
    // Named after its template (here the first document's name, from_pdf), the id beside.
    await page.locator('tr', { hasText: submissionId }).getByRole('link', { name: 'Contract' }).click()
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    await page.getByText(submissionId, { exact: true }).waitFor()
    await settled(page)
    const timeline = page.locator('ol.timeline')
    await timeline.getByText('Submission created').waitFor()
    // Preserved order (the default): only the first signer was asked, the second waits for them.
    await timeline.getByText('Sent to FIRST (first in order)').waitFor()
    await page.locator('tr', { hasText: 'first@example.eu' }).getByText('Sent — their turn').waitFor()
    await page.locator('tr', { hasText: 'second@example.eu' }).getByText('Waiting for first').waitFor()
    await page.getByRole('link', { name: 'Original: Contract' }).waitFor()
    await check(page, 'submission-detail')

    // Search by a signer's address finds it; another address finds nothing.
    await go(page, '/submissions')
    await page.getByLabel('Signer’s e-mail').fill('second@example.eu')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(submissionId, { exact: true }).waitFor()
    await page.getByLabel('Signer’s e-mail').fill('nobody@example.eu')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText('No submissions for nobody@example.eu').waitFor()
    await context.close()
  })

  it('API keys: create (the secret shown once), then revoke: the revoked key gets 401', async () => {
    const { context, page } = await open()
    await go(page, '/developers/keys')
    await check(page, 'api-keys')
    await page.getByRole('button', { name: 'Create a test key' }).click()
    // The name is optional: made without one.
    await page
      .getByRole('dialog', { name: 'Create a test key' })
      .getByRole('button', { name: 'Create' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Your new API key' })
    const secret = await dialog.locator('code').innerText()
    assert.match(secret, /^sk_test_/)
    await check(page, 'api-key-created')
    await dialog.getByRole('button', { name: 'I have stored it' }).click()
    // The new key works against the API.
    const health = await t.app.inject({
      method: 'GET',
      url: '/v1/health',
      headers: { authorization: `Bearer ${secret}` },
    })
    assert.equal(health.statusCode, 200)

    const prefix = secret.slice(0, 12)
    await page.getByRole('button', { name: `Revoke ${prefix}` }).click()
    await page
      .getByRole('dialog', { name: 'Revoke this key?' })
      .getByRole('button', { name: 'Revoke' })
      .click()
    await page
      .getByText(/^Revoked /)
      .first()
      .waitFor()
    // The revoked key no longer opens the API.
    const refused = await t.app.inject({
      method: 'GET',
      url: '/v1/health',
      headers: { authorization: `Bearer ${secret}` },
    })
    assert.equal(refused.statusCode, 401)
    await context.close()
  })

  it('webhooks: create an endpoint to a local receiver, send a test event, see a delivery', async () => {
    const { context, page } = await open()
    await go(page, '/developers/webhooks')
    await check(page, 'webhooks-empty')
    await page.getByRole('button', { name: 'Add an endpoint' }).click()
    const form = page.getByRole('dialog', { name: 'Add an endpoint' })
    await form.getByLabel('URL').fill(receiver.url())
    await form.getByRole('checkbox', { name: 'submission.viewed' }).uncheck()
    await check(page, 'webhook-create')
    await form.getByRole('button', { name: 'Create' }).click()
    const secretDialog = page.getByRole('dialog', { name: 'The endpoint’s signing secret' })
    assert.match(await secretDialog.locator('code').innerText(), /^whsec_/)
    await secretDialog.getByRole('button', { name: 'I have stored it' }).click()
    await page.getByRole('link', { name: receiver.url() }).click()
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor()
    await settled(page)

    await page.getByRole('button', { name: 'Send a test event' }).click()
    await page.getByRole('heading', { name: 'Test event' }).waitFor()
    // The test result's own panel (the test is also listed among the deliveries, with its request).
    assert.match(
      await page.locator('section[aria-labelledby="test-title"] pre.raw').innerText(),
      /HTTP 200[\s\S]*hello from the receiver/,
    )
    await page.locator('.delivery', { hasText: 'webhook.test' }).getByText('Test', { exact: true }).waitFor()

    // A real event: a submission made now is delivered by the worker, and listed with its attempt.
    await createSubmission(t, keys.testKey, await everyTypeBody())
    await work()
    await page.reload()
    await settled(page)
    const delivery = page.locator('.delivery', { hasText: 'submission.created' }).first()
    await delivery.getByText('Delivered').waitFor()
    // A visible disclosure, its state told: Details ▸ opens the attempts.
    const details = delivery.getByRole('button', { name: /^Details submission\.created of / })
    assert.equal(await details.getAttribute('aria-expanded'), 'false')
    assert.equal(await delivery.getByText('HTTP 200').isVisible(), false)
    await details.click()
    assert.equal(await details.getAttribute('aria-expanded'), 'true')
    await delivery.getByText('HTTP 200').waitFor()
    await check(page, 'webhook-detail')
    await context.close()
  })

  it('request logs, with a failed request opened to its error envelope; usage with its chart', async () => {
    await t.request(keys.testKey, { method: 'GET', url: '/v1/submissions/sub_doesnotexist000000000000' })
    await t.deps.requestLogs.flush()
    const { context, page } = await open()
    await go(page, '/developers/logs')
    await page.getByLabel('Status').fill('4xx')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page
      .getByRole('button', { name: /resource_not_found|invalid_id/ })
      .first()
      .click()
    await page
      .locator('pre.raw')
      .getByText(/"code"/)
      .waitFor()
    await check(page, 'request-logs')

    await go(page, '/usage')
    await page.getByRole('img', { name: /Signatures per day/ }).waitFor()
    // The tier: its price, then what it covers on a line of its own; the chart's value axis has labels.
    await page.locator('.totals dd', { hasText: /^\S+ per signature/ }).waitFor()
    assert.match(
      await page.locator('.totals .tier-price').innerText(),
      /^for up to [\d,]+ signatures a month$/,
    )
    const axisLabels = await page.locator('svg.chart text.chart-label[text-anchor="end"]').allTextContents()
    assert.deepEqual(axisLabels, ['0', '1'], 'no signature yet: the axis runs from 0 to 1')
    await check(page, 'usage')
    await context.close()
  })

  it('members: add one, and demoting the last admin is refused with its reason shown', async () => {
    const { context, page } = await open()
    await go(page, '/members')
    await page.getByLabel('E-mail address').fill('bob@example.eu')
    await page.getByLabel('Role', { exact: true }).selectOption('editor')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.getByRole('cell', { name: 'bob@example.eu', exact: true }).waitFor()
    await page.getByLabel('Role of ada@example.eu').selectOption('editor')
    await page.getByText(/keeps at least one admin/).waitFor()
    // The code and status stay on a details line of their own, under the words.
    assert.match(await page.locator('.error-note .error-details').innerText(), /^Code [a-z_]+ · HTTP 4\d\d$/)
    assert.equal(await page.getByLabel('Role of ada@example.eu').inputValue(), 'admin')
    await check(page, 'members')
    await context.close()
  })

  it('French: the language picker turns the console into French', async () => {
    const { context, page } = await open()
    await go(page, '/templates')
    await page.getByLabel('Language').selectOption('fr')
    await page.getByRole('heading', { name: 'Modèles' }).waitFor()
    assert.equal(await page.evaluate('document.documentElement.lang'), 'fr')
    await check(page, 'templates-fr')
    await context.close()
  })

  it('an editor: no API keys or members in the menu, webhooks read-only, admin pages refused', async () => {
    const editor = await signedInMember(t, keys.accountId, { role: 'editor', email: 'eve@example.eu' })
    const { context, page } = await open(true, editor)
    await go(page, '/developers/webhooks')
    const nav = page.getByRole('navigation', { name: 'Console' })
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor()
    assert.equal(await nav.getByRole('link', { name: 'API keys' }).count(), 0)
    assert.equal(await nav.getByRole('link', { name: 'Members' }).count(), 0)
    await page.getByText('You can look but not change').waitFor()
    assert.equal(await page.getByRole('button', { name: 'Add an endpoint' }).count(), 0)
    await check(page, 'webhooks-editor')
    await go(page, '/members')
    await page.getByRole('heading', { name: 'Admins only' }).waitFor()
    await context.close()
  })

  it('keyboard: the skip link leads to the content; a dialog closes on Escape and gives focus back', async () => {
    const { context, page } = await open()
    await go(page, '/developers/webhooks')
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content')
    await page.keyboard.press('Enter')
    assert.equal(await page.evaluate('document.activeElement.id'), 'main')
    await tabTo(page, 'button.primary')
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Add an endpoint' })
    await dialog.waitFor()
    // Focus moves in and back after the dialog's own events: waited for (5 s at most), not read once.
    // (Locators on :focus, not a string predicate: polling one needs eval, which the console's CSP forbids.)
    await page.locator('#endpoint-url:focus').waitFor({ timeout: 5000 })
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await page.locator('button:focus', { hasText: 'Add an endpoint' }).waitFor({ timeout: 5000 })
    await context.close()
  })
})
