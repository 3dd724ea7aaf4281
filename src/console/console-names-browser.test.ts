// Names everywhere a person looks (issue #33 item 2), in a real browser against the real server: the
// submissions list names each row after its template (a stored template's name, the first
// document's name behind from_pdf) with its signers' names and roles, the submission's title is that
// name, its timeline says who did what ("Alice Martin signed"), and every id stays beside as
// secondary text a button copies. axe-core on each page, screenshots at 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { check, openConsole, SHOTS } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { createTemplateFor, post } from '../../test/documents.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { type Created, createSubmission, everyTypeBody, FIRST_VALUES, signer } from '../../test/signing.ts'

describe('names in the console (a browser)', () => {
  let t: TestApp
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let inline: Created
  let fromTemplate: Created
  let templateId: string

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '100000' } })
    const keys = await t.account('Acme Legal')
    templateId = await createTemplateFor(t, keys.testKey, { name: 'Lease agreement' })
    const created = await post(t, keys.testKey, '/v1/submissions', {
      template_id: templateId,
      submitters: [
        { role: 'first', email: 'carla@example.eu', name: 'Carla Diaz' },
        { role: 'second', email: 'dan@example.eu' },
      ],
    })
    assert.equal(created.statusCode, 201, created.body)
    fromTemplate = created.json()
    const body = await everyTypeBody(['first', 'second'], {
      submitters: [
        { role: 'first', email: 'alice@example.eu', name: 'Alice Martin' },
        { role: 'second', email: 'bob@example.eu', name: 'Bob Stone' },
      ],
    })
    inline = await createSubmission(t, keys.testKey, body)
    const signed = await signer(t, inline.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    admin = await signedInMember(t, keys.accountId, { email: 'ada@example.eu' })
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  const open = () =>
    openConsole(browser, base, admin, 'en-GB', { permissions: ['clipboard-read', 'clipboard-write'] })
  const go = (page: Page, path: string) => page.goto(`${base}/console${path}`)

  it('the list names each submission after its template, with its signers and roles; the id is copied', async () => {
    const { context, page } = await open()
    await go(page, '/submissions')
    const inlineRow = page.locator('tr', { hasText: inline.id })
    const templateRow = page.locator('tr', { hasText: fromTemplate.id })
    await inlineRow.getByRole('link', { name: 'Contract' }).waitFor()
    await templateRow.getByRole('link', { name: 'Lease agreement' }).waitFor()
    await inlineRow.getByText('Alice Martin').waitFor()
    await inlineRow.getByText('(first)').waitFor()
    await templateRow.getByText('Carla Diaz').waitFor()
    // A signer without a name is shown by their address.
    await templateRow.getByText('dan@example.eu').waitFor()
    await check(page, 'names-submissions', [1280, 375])

    await page.getByRole('button', { name: `Copy the id ${inline.id}` }).click()
    await page.getByText('Copied').first().waitFor()
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), inline.id)
    await context.close()
  })

  it("the submission's title is its name; its timeline says who did what; its ids stay beside", async () => {
    const { context, page } = await open()
    await go(page, '/submissions')
    await page.locator('tr', { hasText: inline.id }).getByRole('link', { name: 'Contract' }).click()
    await page.getByRole('heading', { level: 1, name: 'Contract' }).waitFor()
    await page.locator('.page-subtitle').getByText(inline.id, { exact: true }).waitFor()
    const timeline = page.locator('ol.timeline')
    await timeline.getByText('Alice Martin signed').waitFor()
    await timeline.getByText('Submission created').waitFor()
    assert.equal(await timeline.getByText(/A signer|sbm_/).count(), 0, 'no anonymous signer, no bare id')
    // The signers' table: names, roles, and each signer's id to copy.
    await page.getByRole('button', { name: `Copy the id ${inline.submitters[0]!.id}` }).waitFor()
    // A function, not a string: the console's CSP refuses eval, which a string predicate needs.
    await page.waitForFunction(
      () => (globalThis as unknown as { document: { title: string } }).document.title === 'Contract · Paraph',
    )
    await check(page, 'names-submission-detail', [1280, 375])

    await go(page, `/submissions/${fromTemplate.id}`)
    await page.getByRole('heading', { level: 1, name: 'Lease agreement' }).waitFor()
    await page.locator('.facts').getByText(templateId, { exact: true }).waitFor()
    await check(page, 'names-submission-from-template', [1280, 375])
    await context.close()
  })

  it('the templates list: the name first, a link to send it, the id beside it to copy', async () => {
    const { context, page } = await open()
    await go(page, '/templates')
    const row = page.locator('tr', { hasText: templateId })
    await row.getByText('Lease agreement', { exact: true }).waitFor()
    await row.getByRole('button', { name: `Copy the id ${templateId}` }).click()
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), templateId)
    await check(page, 'names-templates', [1280, 375])
    // Templates never change: the list says so, and how to make a new one from this one.
    await page
      .getByText('Templates do not change once saved: “Duplicate and edit” makes a new one.')
      .waitFor()
    // The name is a link to what comes next, named for it: sending the template.
    const name = row.getByRole('link', { name: 'Send Lease agreement', exact: true })
    assert.equal(await name.innerText(), 'Lease agreement')
    assert.equal(await name.getAttribute('title'), 'Send Lease agreement')
    await name.click()
    await page.waitForURL(/\/console\/templates\/tpl_\w+\/send$/)
    await context.close()
  })
})
