// The console's Data retention page in a real browser (docs/console.md#data-retention): the policy in
// words, changed with the keyboard alone (keep forever → 90 days for completed and declined), an
// API refusal shown from its envelope, leaving with changes asks first, and an editor reads without
// a form. axe-core on every state, screenshots at 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser, tabTo } from '../../test/browser.ts'
import { check as checkAt, openConsole, SHOTS, settled } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

describe('the Data retention page in a browser', () => {
  let t: TestApp
  let keys: Keys
  let base: string
  let browser: Browser
  let admin: ConsoleClient

  before(async () => {
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

  const check = (page: Page, name: string) => checkAt(page, name, [1280, 375])
  const policy = async () =>
    (await t.request(keys.testKey, { method: 'GET', url: '/v1/retention_policy' })).json()

  it('an admin changes the policy with the keyboard; a refusal is shown; leaving unsaved asks first', async () => {
    const { context, page } = await openConsole(browser, base, admin)
    await page.goto(`${base}/console/retention`)
    await settled(page)
    await page.getByText('Ended submissions are kept forever.').waitFor()
    await check(page, 'retention-default')

    // Keyboard only: the "delete" radio, the days, two statuses off, Save.
    await tabTo(page, 'input[type="radio"]:checked', 80)
    await page.keyboard.press('ArrowDown')
    assert.equal(await page.getByLabel('Delete them a number of days after they end').isChecked(), true)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('0')
    for (const status of ['Expired', 'Cancelled']) {
      await page.getByLabel(status, { exact: true }).focus()
      await page.keyboard.press('Space')
    }
    await page.getByText('Changes not saved.').waitFor()
    await page.getByRole('button', { name: 'Save' }).focus()
    await page.keyboard.press('Enter')
    const refusal = page.getByRole('alert')
    await refusal.waitFor()
    assert.match(await refusal.innerText(), /^Days after the end: must be >= 1\./)
    assert.match(await refusal.innerText(), /invalid_request · HTTP 422/)
    assert.equal((await policy()).delete_after_days, null, 'nothing saved')
    await check(page, 'retention-refused')

    // Leaving with the change unsaved asks first; Stay keeps it.
    await page.getByRole('link', { name: 'Templates' }).click()
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' })
    await leave.waitFor()
    await leave.getByRole('button', { name: 'Stay' }).click()
    await leave.waitFor({ state: 'detached' })
    assert.match(page.url(), /\/console\/retention$/)

    await page.getByLabel('Days after the end').fill('90')
    await page.getByRole('button', { name: 'Save' }).click()
    await page
      .getByText('Ended submissions are deleted 90 days after they end: completed, declined.')
      .waitFor()
    const saved = await policy()
    assert.equal(saved.delete_after_days, 90)
    assert.deepEqual(saved.applies_to, ['completed', 'declined'])
    await page.getByText('Changes not saved.').waitFor({ state: 'detached' })
    await check(page, 'retention-saved')

    // Saved: leaving asks nothing.
    await page.getByRole('link', { name: 'Templates' }).click()
    await page.waitForURL(/\/console\/templates$/)
    await context.close()
  })

  it('an editor reads the policy in words, in French too, without a form', async () => {
    const editor = await signedInMember(t, keys.accountId, { role: 'editor' })
    const { context, page } = await openConsole(browser, base, editor, 'fr-FR')
    await page.goto(`${base}/console/retention`)
    await settled(page)
    await page
      .getByText('Les envois terminés sont supprimés 90 jours après leur fin : signés, refusés.')
      .waitFor()
    await page.getByText('Seul un administrateur du compte peut modifier la règle.').waitFor()
    assert.equal(await page.locator('form.retention-form').count(), 0)
    await check(page, 'retention-editor-fr')
    await context.close()
  })
})
