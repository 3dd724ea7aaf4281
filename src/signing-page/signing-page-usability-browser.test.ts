// In a real browser at 375 px, the signing page's defects found by the usability run of issue #33:
// a reload resumes where work stopped (the first required field still empty, or Sign); axe finds
// nothing at any step, and every button's accessible name starts with the words it shows; the
// "You have signed" screen says truthfully that the copy it offers now is not sealed yet; the
// names the template editor makes up ("Signature 2") reach the signer as the type's own words.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Locator, Page } from 'playwright-core'
import {
  closeBrowserApp,
  openBrowserApp,
  openSignerPage,
  PHONE,
  screenshot,
  typeSignature,
} from '../../test/browser.ts'
import { axe } from '../../test/console/console-browser-kit.ts'
import { base64 } from '../../test/documents.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import type { TestApp } from '../../test/harness.ts'
import { type Created, createSubmission, SIGNATURE, signer } from '../../test/signing.ts'
import { TEXTS } from './page/texts.ts'

const pathOf = (url: string) => new URL(url).pathname

/**
 * Two A4 pages as the editor names fields. In reading order for `client`: Purchase order number
 * (the sender's name) and Date 1 on page 1, Text 1 and Signature 2 on page 2; `provider` signs after.
 */
async function editorNamedBody() {
  const area = (page: number, y: number) => ({ page, x: 0.1, y, w: 0.35, h: 0.04 })
  const field = (name: string, type: string, role: string, at: ReturnType<typeof area>) => ({
    name,
    type,
    role,
    areas: [at],
  })
  const a4: [number, number] = [595.28, 841.89]
  return {
    documents: [
      {
        name: 'Consulting agreement',
        pdf_base64: base64(await pdfOfPages([a4, a4])),
        fields: [
          field('Purchase order number', 'text', 'client', area(1, 0.1)),
          field('Date 1', 'date', 'client', area(1, 0.2)),
          field('Text 1', 'text', 'client', area(2, 0.3)),
          field('Signature 2', 'signature', 'client', area(2, 0.6)),
          field('Signature 1', 'signature', 'provider', area(2, 0.8)),
        ],
      },
    ],
    submitters: [
      { role: 'client', email: 'client@example.eu', name: 'Alice Martin' },
      { role: 'provider', email: 'provider@example.eu', name: 'Bob Stone' },
    ],
  }
}

const CLIENT_VALUES = {
  'Purchase order number': 'PO-2026-0042',
  'Date 1': '2026-11-29',
  'Text 1': 'Schedule A',
  'Signature 2': SIGNATURE,
}

/** Every visible button whose accessible name does not start with the words it shows (WCAG 2.5.3). */
async function namesNotStartingWithWords(scope: Page | Locator): Promise<string[]> {
  const wrong: string[] = []
  for (const button of await scope.getByRole('button').all()) {
    if (!(await button.isVisible())) continue
    const words = (await button.innerText()).replace(/\s+/g, ' ').trim()
    const name = /^- button "(.*)"/.exec(await button.ariaSnapshot())?.[1] ?? ''
    if (words && !name.toLowerCase().startsWith(words.toLowerCase())) wrong.push(`"${words}" named "${name}"`)
  }
  return wrong
}

/** The answer to the save carrying `field`: saves go one at a time, so every change before it is kept too. */
function savedWith(page: Page, field: string): Promise<unknown> {
  return page.waitForResponse(
    (r) => r.url().endsWith('/progress') && r.ok() && (r.request().postData() ?? '').includes(`"${field}"`),
  )
}

/** Whether the element lies wholly inside the 375 × 812 window. */
async function inWindow(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox()
  return box !== null && box.y >= 0 && box.y + box.height <= PHONE.height
}

describe('the signing page after the usability run (issue #33)', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  before(async () => {
    ;({ t, key, base, browser } = await openBrowserApp())
  })
  after(() => closeBrowserApp(t, browser))

  async function open(created: Created, who = 0, locale = 'en-GB'): Promise<Page> {
    const url = `${base}${pathOf(created.submitters[who]!.signing_url)}`
    const page = await openSignerPage(browser, url, { viewport: PHONE, locale })
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    return page
  }

  async function reload(page: Page): Promise<void> {
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement' }).waitFor()
  }

  it('a reload resumes at the first required field still empty, then at Sign once all are filled', async () => {
    const page = await open(await createSubmission(t, key, await editorNamedBody()))
    await page.locator('[data-field="Purchase order number"]').click()
    await page.locator('.panel input[type="text"]').fill('PO-2026-0042')
    await page.locator('[data-field="Date 1"]').click()
    const dateSaved = savedWith(page, 'Date 1')
    await page.locator('.panel input[type="date"]').fill('2026-11-29')
    await dateSaved
    await reload(page)
    assert.equal(
      await page.locator('[data-field="Purchase order number"] .value').textContent(),
      'PO-2026-0042',
    )
    assert.equal(await page.locator('.panel .count').textContent(), '3 / 4')
    assert.equal(await page.locator('.panel .field-name').textContent(), 'Text')
    const current = page.locator('.field.is-current')
    assert.equal(await current.getAttribute('data-field'), 'Text 1')
    assert.ok(await inWindow(current), 'the document is scrolled to the field on page 2')
    await screenshot(page, 'usability-resumed-375')

    await page.locator('.panel input[type="text"]').fill('Schedule A')
    const signatureSaved = savedWith(page, 'Signature 2')
    await typeSignature(page, 'Signature 2', 'Alice Martin')
    await signatureSaved
    await reload(page)
    assert.equal(await page.locator('.progress').textContent(), 'Everything is filled in: review and sign.')
    assert.equal(await page.locator('.panel').getAttribute('class'), 'panel')
    const sign = page.getByRole('button', { name: 'Sign', exact: true })
    assert.ok(await inWindow(sign), 'Sign is on screen, in the open panel')
    await screenshot(page, 'usability-resumed-at-sign-375')
    await page.context().close()
  })

  it('axe finds nothing on opening, in the signature dialog on every tab, and ready to sign; names start with their words', async () => {
    const page = await open(await createSubmission(t, key, await editorNamedBody()))
    await axe(page, 'opening 375')
    await page.locator('[data-field="Signature 2"]').click()
    const dialog = page.getByRole('dialog', { name: 'Your signature' })
    await dialog.waitFor()
    for (const tab of ['Draw', 'Type', 'Upload']) {
      await dialog.getByRole('button', { name: tab, exact: true }).click()
      await axe(page, `signature dialog, ${tab} 375`)
      assert.deepEqual(await namesNotStartingWithWords(dialog), [], `dialog on ${tab}`)
    }
    await dialog.getByRole('button', { name: 'Type', exact: true }).click()
    await screenshot(page, 'usability-dialog-type-375')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    // Voice control says what it sees: "Add your signature" (the field's name, "Your signature", is in it).
    await page.getByRole('button', { name: 'Add your signature', exact: true }).waitFor()
    assert.deepEqual(await namesNotStartingWithWords(page), [])

    await page.locator('[data-field="Purchase order number"]').click()
    await page.locator('.panel input[type="text"]').fill('PO-2026-0042')
    await page.locator('[data-field="Date 1"]').click()
    await page.locator('.panel input[type="date"]').fill('2026-11-29')
    await page.locator('[data-field="Text 1"]').click()
    await page.locator('.panel input[type="text"]').fill('Schedule A')
    await typeSignature(page, 'Signature 2', 'Alice Martin')
    // The signature's control now says "Change": its name starts so, then names the field.
    await page.getByRole('button', { name: 'Change — Your signature', exact: true }).waitFor()
    assert.equal(
      await page.locator('[data-field="Date 1"]').getAttribute('aria-label'),
      '29 Nov 2026 — Date, required, filled',
    )
    assert.deepEqual(await namesNotStartingWithWords(page), [])
    await axe(page, 'ready to sign 375')
    await screenshot(page, 'usability-ready-375')
    await page.context().close()
  })

  it('signed: the copy offered now says it is not sealed, in all four languages; axe finds nothing', async () => {
    const created = await createSubmission(t, key, await editorNamedBody())
    const signed = await signer(t, created.submitters[0]!, 'sign', { values: CLIENT_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    const page = await open(created, 0)
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    assert.equal(
      await page.locator('.screen p').textContent(),
      'Thank you, your signature is recorded. As soon as every signature is in and the document is sealed, this link gives you the sealed PDF.',
    )
    const copy = page.getByRole('link', {
      name: 'Download your copy (not yet sealed: the sealed PDF comes when everyone has signed)',
      exact: true,
    })
    const href = await copy.getAttribute('href')
    assert.equal(href, (await signer(t, created.submitters[0]!, 'form')).json().current_pdf_url)
    await axe(page, 'signed 375')
    await screenshot(page, 'usability-signed-375')
    await page.context().close()
    for (const [lang, locale] of [
      ['fr', 'fr-FR'],
      ['de', 'de-DE'],
      ['es', 'es-ES'],
    ] as const) {
      const other = await open(created, 0, locale)
      const words = TEXTS[lang]
      await other.getByRole('heading', { name: words.state_signed_title }).waitFor()
      assert.equal(await other.locator('.screen p').textContent(), words.state_signed_body)
      const name = `${words.download_copy} (${words.download_copy_note})`
      await other.getByRole('link', { name, exact: true }).waitFor()
      assert.notEqual(words.download_copy_note, TEXTS.en.download_copy_note, `${lang} is translated`)
      await screenshot(other, `usability-signed-${lang}-375`)
      await other.context().close()
    }
  })

  it('names the editor made up show as the type’s words; the sender’s own names stay', async () => {
    const created = await createSubmission(t, key, await editorNamedBody())
    const page = await open(created)
    const placeholders = await page.locator('.field .placeholder').allTextContents()
    assert.deepEqual(placeholders, ['Purchase order number', 'Date', 'Text', 'Your signature'])
    assert.equal(await page.locator('.panel .field-name').textContent(), 'Purchase order number')
    await page.getByRole('button', { name: 'Sign…' }).click()
    await page.getByRole('button', { name: 'Sign', exact: true }).click()
    assert.equal(
      await page.locator('.panel .message').textContent(),
      'Please fill in: Purchase order number, Date, Text, Your signature.',
    )
    assert.equal(await page.getByText(/Signature 2|Date 1|Text 1/).count(), 0, 'no made-up name on screen')
    await screenshot(page, 'usability-type-words-375')
    await page.context().close()

    // Another signer reads the client's values under the type's plain words, not "Your signature".
    const signed = await signer(t, created.submitters[0]!, 'sign', { values: CLIENT_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    const provider = await open(created, 1)
    await provider.locator('.others-values summary').click()
    const listed = await provider.locator('.others-values dt').allTextContents()
    assert.deepEqual(listed.sort(), ['Date', 'Purchase order number', 'Signature', 'Text'])
    assert.equal(await provider.locator('.panel .field-name').textContent(), 'Your signature')
    await provider.context().close()
  })
})
