// The developer pages in a real browser (issue #33 item 4): API keys named at creation and renamed
// with the keyboard; a test event listed among the endpoint's deliveries, marked Test, and
// redelivered; the request logs naming each caller (a key's name and prefix, a console member)
// with the API-keys-only filter, a filter on one caller and a route written as a log line shows it;
// and a webhook URL on loopback refused with what to do. axe-core on every state, screenshots at
// 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser, tabTo } from '../../test/browser.ts'
import { check as checkAt, openConsole, SHOTS, settled } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

describe('the developer pages in a browser', () => {
  let t: TestApp
  let keys: Keys
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let receiver: WebhookReceiver

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({
      env: { PUBLIC_URL: base, ALLOW_PRIVATE_NETWORK_URLS: 'true', RATE_LIMIT_TEST: '100000' },
    })
    keys = await t.account('Acme Legal')
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
    await t?.close()
  })

  const check = (page: Page, name: string) => checkAt(page, name, [1280, 375])

  async function go(page: Page, path: string, at = base): Promise<void> {
    await page.goto(`${at}/console${path}`)
    await settled(page)
  }

  it('API keys: named at creation, renamed with the keyboard, the name in the list', async () => {
    const { context, page } = await openConsole(browser, base, admin)
    await go(page, '/developers/keys')
    await page.getByRole('button', { name: 'Create a test key' }).click()
    const naming = page.getByRole('dialog', { name: 'Create a test key' })
    await naming.getByLabel('Name (optional)').fill('Billing backend')
    await check(page, 'api-key-name')
    await naming.getByRole('button', { name: 'Create' }).click()
    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' })
    const secret = await secretDialog.locator('code').innerText()
    assert.match(secret, /^sk_test_/)
    await secretDialog.getByRole('button', { name: 'I have stored it' }).click()
    await page.getByRole('cell', { name: 'Billing backend', exact: true }).waitFor()

    // Rename with the keyboard only: Tab to the button, Enter, type, Enter.
    await tabTo(page, 'button[aria-label="Rename Billing backend"]', 80)
    await page.keyboard.press('Enter')
    const rename = page.getByRole('dialog', { name: 'Rename this key' })
    await page.locator('#key-name:focus').waitFor({ timeout: 5000 })
    await page.keyboard.press('Control+A')
    await page.keyboard.type('Nightly export')
    await page.keyboard.press('Enter')
    await rename.waitFor({ state: 'detached' })
    await page.getByRole('cell', { name: 'Nightly export', exact: true }).waitFor()
    assert.equal(
      await page.getByRole('cell', { name: 'No name', exact: true }).count(),
      1,
      'the account’s first key',
    )
    await check(page, 'api-keys-named')
    const stored = await t.deps.db
      .selectFrom('api_keys')
      .select('name')
      .where('key_hint', '=', `${secret.slice(0, 12)}…`)
      .executeTakeFirst()
    assert.equal(stored?.name, 'Nightly export')
    await context.close()
  })

  it('webhooks: a failed test event is listed as a Test delivery and redelivered from there', async () => {
    const created = await t.request(keys.testKey, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: receiver.url(), events: ['submission.created'] },
    })
    assert.equal(created.statusCode, 201, created.body)
    receiver.queue.push(answers.status(500, 'not ready yet'))
    const { context, page } = await openConsole(browser, base, admin)
    await go(page, `/developers/webhooks/${created.json().id}`)
    await page.getByText('No deliveries yet.').waitFor()
    await page.getByRole('button', { name: 'Send a test event' }).click()
    await page.getByRole('heading', { name: 'Test event' }).waitFor()
    const delivery = page.locator('.delivery', { hasText: 'webhook.test' })
    await delivery.getByText('Test', { exact: true }).waitFor()
    await delivery.getByText('Failed').waitFor()
    const lastSuccess = page.locator('.facts > div', { hasText: 'Last success' }).locator('dd')
    assert.equal(await lastSuccess.innerText(), '—')
    // Redeliver sits on the delivery's row, in sight before anything is opened.
    const redeliver = delivery.getByRole('button', { name: /^Redeliver webhook\.test of / })
    assert.ok(await redeliver.isVisible(), 'Redeliver on the row itself')
    await delivery.getByRole('button', { name: /^Details webhook\.test of / }).click()
    await delivery.locator('td', { hasText: 'HTTP 500' }).waitFor()
    await check(page, 'webhook-test-delivery')
    // The receiver is fixed: redeliver the same test from the list.
    await redeliver.click()
    await page.getByText('Redelivered: the endpoint accepted it.').waitFor()
    await delivery.getByText('Delivered', { exact: true }).waitFor()
    assert.equal(receiver.received.length, 2)
    assert.equal(receiver.received[1]!.body, receiver.received[0]!.body, 'the same event again')
    // The endpoint's health is read again: its last success is the redelivery's.
    await lastSuccess.getByText(/\d/).waitFor()
    await check(page, 'webhook-test-redelivered')
    await context.close()
  })

  it('request logs: each caller named, API keys only, one caller, a route as a log line shows it', async () => {
    const named = (
      await admin.request({ method: 'POST', url: '/console/api/keys', payload: { name: 'Reporting job' } })
    ).json()
    await t.request(named.secret, { method: 'GET', url: '/v1/submissions/sub_doesnotexist000000000000' })
    await t.request(keys.testKey, { method: 'GET', url: '/v1/templates' })
    await t.deps.requestLogs.flush()
    const { context, page } = await openConsole(browser, base, admin)
    await go(page, '/developers/logs')
    // The console's own calls are there, marked Console with the member's address.
    await page.locator('td.caller', { hasText: 'ada@example.eu' }).first().waitFor()
    await check(page, 'request-logs-everyone')
    await page.getByLabel('Caller', { exact: true }).selectOption('api_key')
    await page.locator('td.caller', { hasText: 'ada@example.eu' }).first().waitFor({ state: 'detached' })
    await page.locator('td.caller', { hasText: 'Reporting job' }).waitFor()
    await page
      .locator('td.caller', { hasText: keys.testKey.slice(0, 12) })
      .first()
      .waitFor()
    await check(page, 'request-logs-callers')

    // One caller: its button filters on it.
    await page
      .locator('td.caller')
      .getByRole('button', { name: /Reporting job/ })
      .click()
    // The caller's choice now shows that key, by its name and prefix.
    const caller = page.getByLabel('Caller', { exact: true })
    assert.equal(await caller.inputValue(), named.id)
    assert.equal(
      await caller.locator('option:checked').innerText(),
      `Reporting job (${named.secret.slice(0, 12)}…)`,
    )
    await page
      .locator('td.caller', { hasText: keys.testKey.slice(0, 12) })
      .first()
      .waitFor({ state: 'detached' })
    assert.equal(await page.locator('td.caller').count(), 1)

    // Another caller chosen by name from the list: the account's first key, then the member.
    await caller.selectOption({ label: `No name (${keys.testKey.slice(0, 12)}…)` })
    await page.locator('td.caller', { hasText: 'Reporting job' }).waitFor({ state: 'detached' })
    await page
      .locator('td.caller', { hasText: keys.testKey.slice(0, 12) })
      .first()
      .waitFor()
    await caller.selectOption({ label: 'ada@example.eu (you)' })
    await page.locator('td.caller', { hasText: 'ada@example.eu' }).first().waitFor()
    assert.equal(await page.locator('td.caller', { hasText: keys.testKey.slice(0, 12) }).count(), 0)
    await check(page, 'request-logs-member')
    // A request id not written as one: the refusal in words, never a pattern.
    await page.getByLabel('Request id').fill('abc')
    await page.getByRole('button', { name: 'Apply' }).click()
    const refusal = page.getByRole('alert')
    await refusal.getByText('Request id: must be an id beginning with req_').waitFor()
    assert.doesNotMatch(await refusal.innerText(), /pattern|\^/)
    await page.getByLabel('Request id').fill('')

    // Every caller again, then the route as a log line shows it: a method and a concrete path.
    await caller.selectOption('')
    await page.locator('td.path', { hasText: '/v1/templates' }).first().waitFor()
    await page.getByLabel('Route').fill('GET /v1/submissions/sub_123')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.locator('td.path', { hasText: '/v1/templates' }).first().waitFor({ state: 'detached' })
    await page.locator('td.path', { hasText: '/v1/submissions/sub_doesnotexist000000000000' }).waitFor()
    await check(page, 'request-logs-route')
    await context.close()
  })

  it('a webhook URL on loopback is refused with what to do, ALLOW_PRIVATE_NETWORK_URLS and its risk', async () => {
    const port = await freePort()
    const strictBase = `http://127.0.0.1:${port}`
    const strict = await startTestApp({ env: { PUBLIC_URL: strictBase } })
    try {
      const account = await strict.account('Strict')
      const member = await signedInMember(strict, account.accountId, { email: 'dev@example.eu' })
      await strict.app.listen({ port, host: '127.0.0.1' })
      const { context, page } = await openConsole(browser, strictBase, member)
      await go(page, '/developers/webhooks', strictBase)
      await page.getByRole('button', { name: 'Add an endpoint' }).click()
      const form = page.getByRole('dialog', { name: 'Add an endpoint' })
      await form.getByLabel('URL').fill('http://127.0.0.1:4000/hooks')
      await form.getByRole('button', { name: 'Create' }).click()
      const refusal = form.getByRole('alert')
      await refusal.waitFor()
      const text = await refusal.innerText()
      assert.match(text, /http: URLs are not allowed/)
      assert.match(text, /ALLOW_PRIVATE_NETWORK_URLS=true/)
      assert.match(text, /never in production/)
      await check(page, 'webhook-url-refused')
      await context.close()
    } finally {
      await strict.close()
    }
  })
})
