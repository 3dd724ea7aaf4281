// In a real browser: the signing page on a 375 × 812 phone keeps most of the screen
// for the document while a field is filled, makes every field a 24 px target however small its box,
// shows a placeholder while a page loads, tells focus from the current field, says why a value is
// refused, sends Sign to the first missing field and withdraws "Please fill in" as fields are filled.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page, Route } from 'playwright-core'
import {
  closeBrowserApp,
  computedStyle,
  DESKTOP,
  documentShare,
  openBrowserApp,
  openSignerPage,
  PHONE,
  screenshot,
  tabTo,
  typeSignature,
} from '../../test/browser.ts'
import { base64 } from '../../test/documents.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import type { TestApp } from '../../test/harness.ts'
import { type Created, createSubmission, everyTypeBody, submitterRow } from '../../test/signing.ts'

const pathOf = (url: string) => new URL(url).pathname
/** A string for page.evaluate: this file is compiled without the DOM library. */
const js = (expression: string) => `(() => ${expression})()`

/** Fields of 2 % of the page's height: about 10 px on a phone, as in the contract of issue #20. */
async function smallFieldsBody() {
  const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.35, h: 0.02 })
  return {
    documents: [
      {
        name: 'Small print',
        pdf_base64: base64(await pdfOfPages([[595.28, 841.89]])),
        fields: ['Date', 'Name', 'Amount', 'Agree', 'City'].map((name, i) => ({
          name,
          type: { Date: 'date', Amount: 'number', Agree: 'checkbox' }[name] ?? 'text',
          role: 'first',
          areas: [area(0.1 + i * 0.06)],
        })),
      },
    ],
    submitters: [{ role: 'first', email: 'first@example.eu', name: 'Ann First' }],
  }
}

describe('the signing page on a phone (issue #20)', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  before(async () => {
    ;({ t, key, base, browser } = await openBrowserApp())
  })
  after(() => closeBrowserApp(t, browser))

  async function signerPage(created: Created, viewport = PHONE, watch?: (page: Page) => unknown) {
    const page = await openSignerPage(browser, `${base}${pathOf(created.submitters[0]!.signing_url)}`, {
      viewport,
      ...(watch ? { watch } : {}),
    })
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    return page
  }

  const decoded = (page: Page) =>
    page
      .locator('.page img')
      .first()
      .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode())

  it('while a field is filled the panel stays compact: at least 60 % of the screen shows the document', async (ctx) => {
    const page = await signerPage(await createSubmission(t, key, await everyTypeBody(['first'])))
    await decoded(page)
    await page.locator('[data-field="Name"]').click()
    await page.locator('.panel input[type="text"]').fill('Ann First')
    const share = await documentShare(page)
    await screenshot(page, 'filling-375')
    ctx.diagnostic(
      `phone 375×812, filling a field: pages ${(share.pages * 100).toFixed(1)} % of the screen, bar-to-panel ${(share.between * 100).toFixed(1)} %, panel ${(share.panel * 100).toFixed(1)} %`,
    )
    assert.ok(share.pages >= 0.6, `the document shows on ${(share.pages * 100).toFixed(1)} % of the screen`)
    // The consent and Sign wait behind "Sign…", which opens them and closes them again.
    const toggle = page.getByRole('button', { name: 'Sign…' })
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false')
    assert.equal(await page.getByRole('button', { name: 'Sign', exact: true }).isVisible(), false)
    await toggle.click()
    await page.getByRole('button', { name: 'Sign', exact: true }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded'), 'true')
    await screenshot(page, 'panel-open-375')
    await page.getByRole('button', { name: 'Hide' }).click()
    await page.getByRole('button', { name: 'Sign', exact: true }).waitFor({ state: 'hidden' })
    await page.context().close()
  })

  it('every field is a 24 × 24 px target (WCAG 2.5.8) even when its box is 10 px high', async () => {
    const created = await createSubmission(t, key, await smallFieldsBody())
    const page = await signerPage(created)
    const fields = ['Date', 'Name', 'Amount', 'Agree', 'City']
    for (const name of fields) {
      const box = (await page.locator(`[data-field="${name}"]`).boundingBox())!
      assert.ok(box.height < 14, `${name} is ${box.height} px high: the case issue #20 saw`)
      const cx = box.x + box.width / 2
      const cy = box.y + box.height / 2
      for (const [x, y] of [
        [cx, cy - 11.5],
        [cx, cy + 11.5],
        [box.x - Math.max(0, (24 - box.width) / 2) + 0.5, cy],
      ] as Array<[number, number]>) {
        const hit = await page.evaluate(
          js(`document.elementFromPoint(${x}, ${y})?.closest('[data-field]')?.getAttribute('data-field')`),
        )
        assert.equal(hit, name, `a tap at (${x.toFixed(1)}, ${y.toFixed(1)}) reaches ${name}`)
      }
    }
    // A real tap 11 px below the 10 px box of Name picks Name.
    const name = (await page.locator('[data-field="Name"]').boundingBox())!
    await page.mouse.click(name.x + name.width / 2, name.y + name.height / 2 + 11)
    assert.equal(await page.locator('.field.is-current').getAttribute('data-field'), 'Name')
    await screenshot(page, 'small-fields-375')
    await page.context().close()
  })

  it('Sign goes to the first missing field; "Please fill in" follows the fields as they are filled, then goes', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const page = await signerPage(created)
    await typeSignature(page, 'Signature')
    await typeSignature(page, 'Initials')
    await page.locator('[data-field="Name"]').click()
    await page.locator('.panel input[type="text"]').fill('Ann First')
    await page.locator('[data-field="Agree"]').click()
    await page.locator('.panel input[type="checkbox"]').check()
    await page.locator('[data-field="Plan"]').click()
    await page.getByLabel('pro').check()
    // Plan is current; Date (before it) and Country (after it) are missing.
    await page.getByRole('button', { name: 'Sign…' }).click()
    await page.getByRole('button', { name: 'Sign', exact: true }).click()
    const message = page.locator('.panel .message')
    assert.equal(await message.textContent(), 'Please fill in: Date, Country.')
    assert.equal(await page.locator('.field.is-current').getAttribute('data-field'), 'Date')
    assert.equal(await page.evaluate(js('document.activeElement.type')), 'date', 'focus on the date input')
    assert.equal(await page.locator('.panel').getAttribute('class'), 'panel is-collapsed')
    await screenshot(page, 'missing-375')
    await page.getByRole('button', { name: 'Today' }).click()
    assert.equal(await message.textContent(), 'Please fill in: Country.')
    await page.locator('[data-field="Country"]').click()
    await page.locator('.panel select').selectOption('FR')
    assert.equal(await message.textContent(), '')
    assert.equal(await message.isVisible(), false)
    // All filled: the panel opens on the consent and Sign by itself.
    await page.getByRole('button', { name: 'Sign', exact: true }).click()
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'signed')
    await page.context().close()
  })

  it('a page shows a placeholder while its image loads, and says so when it cannot be shown', async () => {
    const held: Route[] = []
    let arrived: () => void = () => {}
    const firstTwo = new Promise<void>((resolve) => {
      arrived = resolve
    })
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const page = await signerPage(created, PHONE, (p) =>
      p.route(/\/pages\/0\/[12]\?/, (route) => {
        held.push(route)
        if (held.length === 2) arrived()
      }),
    )
    await firstTwo
    const first = page.locator('.page').first()
    assert.equal(await first.locator('.page-loading').textContent(), 'Loading page 1…')
    assert.ok(await first.locator('.page-loading').isVisible())
    const background = async () =>
      (await computedStyle(page, '.page', ['background-image']))['background-image']
    assert.match((await background())!, /linear-gradient/)
    await screenshot(page, 'page-loading-375')
    const byPage = (n: number) => held.find((r) => r.request().url().includes(`/pages/0/${n}?`))!
    await byPage(1).continue()
    await page.locator('.page.is-loaded').first().waitFor()
    assert.equal(await background(), 'none')
    assert.equal(await first.locator('.page-loading').isVisible(), false)
    await byPage(2).abort()
    await page.locator('.page.is-failed').getByText('This page could not be shown.').waitFor()
    await page.context().close()
  })

  it('keyboard focus and the current field look different', async () => {
    const page = await signerPage(await createSubmission(t, key, await everyTypeBody(['first'])), DESKTOP)
    await page.locator('[data-field="Name"]').click()
    await tabTo(page, '[data-field="Amount"]')
    const style = async (name: string) => {
      const s = await computedStyle(page, `[data-field="${name}"]`, [
        'outline-style',
        'outline-color',
        'box-shadow',
        'background-color',
      ])
      return {
        outline: `${s['outline-style']} ${s['outline-color']}`,
        shadow: s['box-shadow'],
        background: s['background-color'],
      }
    }
    const current = await style('Name')
    const focused = await style('Amount')
    assert.equal(current.outline.split(' ')[0], 'none', 'the current field has no focus outline')
    assert.match(current.shadow ?? '', /rgb\(31, 94, 255\)/, 'the current field has the blue ring')
    assert.equal(focused.outline, 'solid rgb(255, 159, 28)', 'focus is the orange outline')
    assert.equal(focused.shadow, 'none', 'a focused field that is not current has no ring')
    assert.notEqual(current.background, focused.background)
    await screenshot(page, 'focus-and-current-1280')
    await page.context().close()
  })

  it('a refused value says why in words, tied to its input: a number, a date out of range', async () => {
    const page = await signerPage(await createSubmission(t, key, await everyTypeBody(['first'])), DESKTOP)
    await page.locator('[data-field="Amount"]').click()
    const amount = page.locator('#field-input-4')
    await amount.fill('12abc')
    await page.keyboard.press('Tab')
    // The error is the input's first description (a date's second says how the PDF writes it).
    const described = async (input: typeof amount) =>
      page.locator(`#${(await input.getAttribute('aria-describedby'))?.split(' ')[0]}`).textContent()
    assert.equal(await described(amount), 'Enter a number, for example 1250.50.')
    assert.equal(await amount.getAttribute('aria-invalid'), 'true')
    await screenshot(page, 'invalid-number-1280')
    await amount.fill('12,5')
    assert.equal(await described(amount), '')
    assert.equal(await amount.getAttribute('aria-invalid'), 'false')
    assert.equal(await page.locator('[data-field="Amount"] .value').textContent(), '12.5')

    await page.locator('[data-field="Date"]').click()
    const date = page.locator('#field-input-2')
    await date.fill('1850-01-01')
    // Tab would walk the date's own day, month and year segments first: leave the input outright.
    await date.blur()
    assert.equal(await described(date), 'Enter a year between 1900 and 2200.')
    assert.equal(await date.getAttribute('aria-invalid'), 'true')
    assert.equal(
      await page.locator('[data-field="Date"]').getAttribute('class'),
      'field field-date is-required is-current',
    )
    await date.fill('2026-11-23')
    assert.equal(await described(date), '')
    assert.equal(await page.locator('[data-field="Date"] .value').textContent(), '23 Nov 2026')
    await page.context().close()
  })
})
