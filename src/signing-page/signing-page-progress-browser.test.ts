// Issue #33 items 5 and 1 (the signer's part), in a real browser. The page is titled with the
// submission's name and shows the sender's message as text; other signers' values are listed in
// full under whose they are, with no caption over the document; dates read in the signer's language
// and the date editor says how the PDF writes them. What a signer fills in is saved as they go: a
// reload brings it back, and signing works after.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser } from 'playwright-core'
import {
  computedStyle,
  DESKTOP,
  freePort,
  launchBrowser,
  openSignerPage,
  PHONE,
  screenshot,
  typeSignature,
} from '../../test/browser.ts'
import { axe } from '../../test/console/console-browser-kit.ts'
import { post } from '../../test/documents.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { type Created, createSubmission, everyTypeBody, FIRST_VALUES, signer } from '../../test/signing.ts'

const pathOf = (url: string) => new URL(url).pathname

describe('the signing page: its context, and the signer’s values kept (issue #33)', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  before(async () => {
    // The app listens where its URLs point, so other signers' image URLs load as they are.
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, SIGNING_URL: base } })
    await t.app.listen({ port, host: '127.0.0.1' })
    key = (await t.account()).testKey
    browser = await launchBrowser()
  })
  after(async () => {
    await browser.close()
    await t.close()
  })

  const progressRows = (submissionId: string) =>
    t.deps.db.selectFrom('signing_progress').selectAll().where('submission_id', '=', submissionId).execute()

  /** From a template whose name is not its file's, with a message holding HTML and variables. */
  async function fromTemplate(): Promise<Created> {
    const body = await everyTypeBody(['first', 'second'])
    const template = await post(t, key, '/v1/templates', {
      name: 'Lease — 12 rue Haute',
      documents: body.documents.map((d) => ({ ...d, name: 'scan_0042' })),
    })
    assert.equal(template.statusCode, 201, template.body)
    const message = {
      subject: 'Your lease, {{submitter.name}}',
      body: 'Hello {{submitter.name}},\n\nhere is <b>{{document.name}}</b> to sign.\nCall me if needed.\n\nMarie',
    }
    const res = await post(t, key, '/v1/submissions', {
      template_id: template.json().id,
      submitters: body.submitters,
      message,
      signing_order: 'random',
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json()
  }

  it('is titled with the submission’s name, shows the message as text and others’ values in full', async () => {
    const created = await fromTemplate()
    const signed = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await openSignerPage(browser, `${base}${pathOf(created.submitters[1]!.signing_url)}`, {
        viewport,
        locale: 'de-DE',
      })
      await page.getByRole('heading', { level: 1, name: 'Lease — 12 rue Haute' }).waitFor()
      assert.equal(await page.title(), 'Lease — 12 rue Haute unterschreiben')
      const message = page.locator('.sender-message')
      assert.equal(await message.locator('summary').textContent(), 'Nachricht des Absenders')
      assert.equal(await message.locator('.message-subject').textContent(), 'Your lease, SECOND')
      const paragraphs = await message.locator('.message-body').allTextContents()
      assert.deepEqual(paragraphs, [
        'Hello SECOND,',
        'here is <b>Lease — 12 rue Haute</b> to sign.\nCall me if needed.',
        'Marie',
      ])
      assert.equal(await message.locator('b').count(), 0, 'the message is text, never HTML')
      // Others' values: listed in full under whose they are; on the document, no caption over anything.
      const others = page.locator('.others-values')
      await others.locator('summary').click()
      assert.equal(await others.locator('h2').textContent(), 'Ausgefüllt von first')
      const listed = (await page.evaluate(
        `Object.fromEntries([...document.querySelectorAll('.others-values dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]))`,
      )) as Record<string, string>
      assert.equal(listed.Name, 'Łukasz Żółć')
      assert.equal(listed.Date, '23.11.2026')
      const caption = await computedStyle(page, '.other[data-other="Name"] .by', ['clip-path'])
      assert.equal(caption['clip-path'], 'inset(50%)')
      await screenshot(page, `context-${viewport.width}`)
      await axe(page, `context ${viewport.width}`)
      await page.context().close()
    }
  })

  it('at 375 px: two fields filled, the page reloaded, the values are back, and signing works', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const page = await openSignerPage(browser, `${base}${pathOf(created.submitters[0]!.signing_url)}`, {
      viewport: PHONE,
    })
    await page.getByRole('heading', { level: 1, name: 'Contract' }).waitFor()
    await page.locator('[data-field="Name"]').click()
    await page.locator('.panel input[type="text"]').fill('Ann Example')
    await page.locator('[data-field="Date"]').click()
    await page.locator('.panel input[type="date"]').fill('2026-11-28')
    assert.equal(
      await page.locator('.panel .field-hint').textContent(),
      'The signed PDF will show 2026-11-28 (year-month-day).',
    )
    await typeSignature(page, 'Signature', 'Ann Example')
    await page.locator('.save-status[data-state="saved"]').waitFor()
    assert.equal(await page.locator('.save-status').textContent(), 'Saved')
    await screenshot(page, 'progress-saved-375')
    const [row] = await progressRows(created.id)
    assert.ok(row, 'saved on the server')

    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Contract' }).waitFor()
    assert.equal(await page.locator('[data-field="Name"] .value').textContent(), 'Ann Example')
    assert.equal(await page.locator('[data-field="Date"] .value').textContent(), '28 Nov 2026')
    assert.equal(await page.locator('[data-field="Signature"] img').count(), 1)
    // Name, Date and the signature are back: Initials, Agree, Plan and Country are left.
    assert.equal(await page.locator('.progress').textContent(), '4 required fields left')
    assert.equal(await page.locator('.save-status').textContent(), 'Saved')
    await screenshot(page, 'progress-restored-375')

    await typeSignature(page, 'Initials', 'AE')
    await page.locator('[data-field="Agree"]').click()
    await page.locator('.panel input[type="checkbox"]').check()
    await page.locator('[data-field="Plan"]').click()
    await page.getByLabel('pro').check()
    await page.locator('[data-field="Country"]').click()
    await page.locator('.panel select').selectOption('FR')
    await page.getByRole('button', { name: 'Sign', exact: true }).click()
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    const row2 = await t.deps.db
      .selectFrom('submitters')
      .select(['status', 'values'])
      .where('id', '=', created.submitters[0]!.id)
      .executeTakeFirstOrThrow()
    assert.equal(row2.status, 'signed')
    const values = JSON.parse(row2.values)
    assert.equal(values.Name, 'Ann Example')
    assert.equal(values.Date, '2026-11-28')
    assert.ok(values.Signature.image, 'the restored signature was signed')
    assert.deepEqual(await progressRows(created.id), [])
    await page.context().close()
  })

  it('after a failed save, says so and sends it again with the next change', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const page = await openSignerPage(browser, `${base}${pathOf(created.submitters[0]!.signing_url)}`, {
      viewport: PHONE,
    })
    await page.getByRole('heading', { level: 1, name: 'Contract' }).waitFor()
    await page.route('**/progress', (route) => route.abort('internetdisconnected'))
    await page.locator('[data-field="Name"]').click()
    await page.locator('.panel input[type="text"]').fill('Ann')
    await page.locator('.save-status[data-state="failed"]').waitFor()
    await page.unroute('**/progress')
    await page.locator('.panel input[type="text"]').fill('Ann Example')
    await page.locator('.save-status[data-state="saved"]').waitFor()
    const form = (await signer(t, created.submitters[0]!, 'form')).json()
    assert.deepEqual(form.progress.values, { Name: 'Ann Example' })
    await page.context().close()
  })
})
