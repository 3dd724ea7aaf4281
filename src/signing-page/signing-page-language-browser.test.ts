// In a real browser: the page speaks the browser's language (German here), its
// picker switches to French or Spanish in place, keeping every value entered, and remembers the
// choice; a date offers today, reads in the signer's language and is sent as YYYY-MM-DD.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { closeBrowserApp, openBrowserApp, openSignerPage, PHONE, screenshot } from '../../test/browser.ts'
import type { TestApp } from '../../test/harness.ts'
import { createSubmission, everyTypeBody, submitterRow } from '../../test/signing.ts'

const pathOf = (url: string) => new URL(url).pathname
const ZONE = 'Europe/Berlin'

/** Today in the browser's zone as YYYY-MM-DD, and as `locale` writes it on the page. */
function today(locale: string): { iso: string; shown: string } {
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date())
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number]
  const shown = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  )
  return { iso, shown }
}

describe('the signing page in German, French and Spanish (issue #20)', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  before(async () => {
    ;({ t, key, base, browser } = await openBrowserApp())
  })
  after(() => closeBrowserApp(t, browser))

  const lang = (page: Page) => page.evaluate('document.documentElement.lang')
  const overlay = (page: Page, field: string) => page.locator(`[data-field="${field}"] .value`).textContent()

  it('German from the browser; the picker switches to French and Spanish, keeping what was entered', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const url = `${base}${pathOf(created.submitters[0]!.signing_url)}`
    const page = await openSignerPage(browser, url, { viewport: PHONE, locale: 'de-DE', timezoneId: ZONE })
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    assert.equal(await lang(page), 'de')
    await page.getByText('Noch 7 Pflichtfelder').waitFor()
    await page.getByRole('button', { name: 'Ablehnen' }).waitFor()
    await page.locator('[data-field="Name"]').click()
    await page.locator('.panel input[type="text"]').fill('Anna Schmidt')
    await page.locator('[data-field="Date"]').click()
    await page.getByRole('button', { name: 'Heute' }).click()
    assert.equal(await overlay(page, 'Date'), today('de-DE').shown)
    await page.getByRole('button', { name: 'Unterschreiben…' }).waitFor()
    await screenshot(page, 'german-375')

    await page.getByLabel('Sprache').selectOption('fr')
    await page.getByText('Encore 5 champs obligatoires').waitFor()
    assert.equal(await lang(page), 'fr')
    assert.equal(await page.evaluate('document.activeElement.id'), 'language', 'the picker keeps the focus')
    await page.getByRole('button', { name: 'Refuser' }).waitFor()
    assert.equal(await overlay(page, 'Name'), 'Anna Schmidt')
    assert.equal(await overlay(page, 'Date'), today('fr-FR').shown)
    assert.equal(await page.locator('.panel input[type="date"]').inputValue(), today('fr').iso)
    await screenshot(page, 'french-375')

    await page.getByLabel('Langue').selectOption('es')
    await page.getByText('Faltan 5 campos obligatorios').waitFor()
    assert.equal(await lang(page), 'es')
    await page.getByRole('button', { name: 'Rechazar' }).waitFor()
    await page.getByRole('button', { name: 'Firmar…' }).waitFor()
    assert.equal(await overlay(page, 'Date'), today('es-ES').shown)
    await screenshot(page, 'spanish-375')

    // Finished in French: the typed signature and initials, the other fields, then Signer.
    await page.getByLabel('Idioma').selectOption('fr')
    await page.locator('[data-field="Signature"]').click()
    await page.getByRole('button', { name: 'Saisir' }).click()
    await page.getByRole('button', { name: 'Utiliser cette signature' }).click()
    await page.locator('[data-field="Initials"]').first().click()
    await page.getByRole('button', { name: 'Utiliser ces initiales' }).click()
    await page.locator('[data-field="Agree"]').click()
    await page.getByLabel('Cochez cette case').check()
    await page.locator('[data-field="Plan"]').click()
    await page.getByLabel('pro').check()
    await page.locator('[data-field="Country"]').click()
    await page.locator('.panel select').selectOption('FR')
    await page.getByText('Tout est rempli : relisez et signez.').waitFor()
    await page.getByRole('button', { name: 'Signer', exact: true }).click()
    await page.getByRole('heading', { name: 'Vous avez signé' }).waitFor()
    const values = JSON.parse((await submitterRow(t, created.submitters[0]!.id)).values ?? '{}')
    assert.equal(values.Name, 'Anna Schmidt')
    assert.equal(values.Date, today('fr').iso, 'sent as YYYY-MM-DD')
    // Signed in French, so the audit trail quotes the French consent.
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).page_language, 'fr')

    // The choice outlives the page: back on the link, French although the browser asks for German.
    await page.reload()
    await page.getByRole('heading', { name: 'Vous avez signé' }).waitFor()
    assert.equal(await lang(page), 'fr')
    await screenshot(page, 'signed-fr-375')
    await page.context().close()
  })
})
