// "Verify a PDF" in a real browser against the real server: a sealed final chosen with the file
// input (keyboard: the label is focusable through the input) shows valid with its submission
// linked, sealed at and level; a changed copy shows "Not valid" and what it means. axe on both,
// screenshots at 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { check, openConsole, SHOTS } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { type Sealed, sealedSubmission } from '../../test/sealed-submission.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

describe('the console verifies a PDF (a browser)', () => {
  let t: TestApp
  let base: string
  let browser: Browser
  let member: ConsoleClient
  let sealed: Sealed
  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base } })
    const keys = await t.account('Acme Legal')
    sealed = await sealedSubmission(t, keys.testKey)
    // Any member may verify: an editor here.
    member = await signedInMember(t, keys.accountId, { role: 'editor' })
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    closePdfFinalizer()
    await browser?.close()
    await t?.close()
  })

  it('valid: the final, its submission linked; not valid: a changed copy, in words', async () => {
    const { context, page } = await openConsole(browser, base, member)
    await page.goto(`${base}/console/submissions`)
    await page.getByRole('link', { name: 'Verify a PDF' }).click()
    await page.getByRole('heading', { name: 'Verify a PDF', level: 1 }).waitFor()
    await check(page, 'verify-empty', [1280, 375])

    const choose = async (name: string, buffer: Buffer) => {
      const answered = page.waitForResponse((r) => r.url().endsWith('/v1/verify'))
      await page.locator('#verify-file').setInputFiles({ name, mimeType: 'application/pdf', buffer })
      assert.equal((await answered).status(), 200)
    }
    await choose('contract-signed.pdf', sealed.final)
    const valid = page.getByRole('region', { name: 'Valid: this file is unchanged since it was sealed' })
    await valid.waitFor()
    await valid.getByText('Final signed document').waitFor()
    await valid.getByText('Simple electronic signature (eIDAS)').waitFor()
    await valid.getByText(/^Sealed at/).waitFor()
    await check(page, 'verify-valid', [1280, 375])

    const changed = Buffer.from(sealed.final)
    changed[12] = changed[12]! ^ 0x01
    await choose('contract-changed.pdf', changed)
    const invalid = page.getByRole('region', { name: 'Not valid' })
    await invalid.getByText('carries this service’s seal but is not a file it sealed').waitFor()
    await invalid.getByText('contract-changed.pdf').waitFor()
    await check(page, 'verify-altered', [1280, 375])

    // Valid again, then the submission's own page through the verdict's link.
    await choose('contract-signed.pdf', sealed.final)
    await valid.getByRole('link', { name: sealed.id }).click()
    await page.waitForURL(`${base}/console/submissions/${sealed.id}`)
    await context.close()
  })

  it('the file input is reached with the keyboard', async () => {
    const { context, page } = await openConsole(browser, base, member)
    await page.goto(`${base}/console/verify`)
    await page.getByRole('heading', { name: 'Verify a PDF', level: 1 }).waitFor()
    let focused = ''
    for (let i = 0; i < 30 && focused !== 'verify-file'; i++) {
      await page.keyboard.press('Tab')
      focused = (await page.evaluate('document.activeElement && document.activeElement.id')) as string
    }
    assert.equal(focused, 'verify-file')
    await context.close()
  })
})
