// A member of a signer group whose link has ended (docs/api.md#signer-groups), in a real browser:
// Bob has the page open when Ann signs for the couple; his Sign then finds the role signed and the
// page shows who signed and when — in English, French, German and Spanish, on a phone and a desktop.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser } from 'playwright-core'
import {
  closeBrowserApp,
  DESKTOP,
  openBrowserApp,
  openSignerPage,
  PHONE,
  screenshot,
  typeSignature,
} from '../../test/browser.ts'
import { type CreatedGroup, groupBody, memberOf } from '../../test/groups.ts'
import type { TestApp } from '../../test/harness.ts'
import { createSubmission, SIGNATURE, signer } from '../../test/signing.ts'

const pathOf = (url: string) => new URL(url).pathname

describe('the signing page of a group member whose link has ended', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  before(async () => {
    ;({ t, key, base, browser } = await openBrowserApp())
  })
  after(() => closeBrowserApp(t, browser))

  /** The couple signs for role `second`, which has one signature field. */
  const couple = async () =>
    (await createSubmission(
      t,
      key,
      await groupBody(['first', 'second'], 1, { signing_order: 'random' }),
    )) as CreatedGroup

  it('Bob signs a moment after Ann: his page says Ann signed, and when (375 px)', async () => {
    const created = await couple()
    const [ann, bob] = [memberOf(created, 1, 0), memberOf(created, 1, 1)]
    const page = await openSignerPage(browser, `${base}${pathOf(bob.signing_url)}`, { viewport: PHONE })
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    const annSigned = await signer(t, ann, 'sign', { values: { 'second signature': SIGNATURE } })
    assert.equal(annSigned.statusCode, 200, annSigned.body)
    await typeSignature(page, 'second signature', 'Bob Martin')
    const sign = page.getByRole('button', { name: 'Sign', exact: true })
    // On a phone the consent and Sign may wait behind "Sign…".
    if (!(await sign.isVisible())) await page.getByRole('button', { name: 'Sign…' }).click()
    await sign.click()
    await page.getByRole('heading', { name: 'Someone else has signed' }).waitFor()
    const body = await page.locator('.screen p').first().textContent()
    assert.equal(
      body,
      'Ann Martin signed this document on 22 November 2026 at 10:00 UTC, for everyone it was sent to with you. There is nothing left to do with this link.',
    )
    assert.equal(await page.locator('.download-link').count(), 0, 'nothing to download')
    assert.equal(await page.evaluate('document.activeElement.tagName'), 'H1', 'the heading takes the focus')
    await screenshot(page, 'group-signed-by-other-375')
    await page.context().close()
  })

  it('opened later, the ended link shows the same screen in every language (1280 px)', async () => {
    const created = await couple()
    const [ann, bob] = [memberOf(created, 1, 0), memberOf(created, 1, 1)]
    assert.equal(
      (await signer(t, ann, 'sign', { values: { 'second signature': SIGNATURE } })).statusCode,
      200,
    )
    const page = await openSignerPage(browser, `${base}${pathOf(bob.signing_url)}`, { viewport: DESKTOP })
    await page.getByRole('heading', { name: 'Someone else has signed' }).waitFor()
    await screenshot(page, 'group-signed-by-other-1280')
    const languages = [
      [
        'fr',
        'Langue',
        'Quelqu’un d’autre a signé',
        /^Ann Martin a signé ce document le 22 novembre 2026 à 10:00 UTC/,
      ],
      [
        'de',
        'Sprache',
        'Jemand anderes hat unterschrieben',
        /^Ann Martin hat dieses Dokument am 22\. November 2026 um 10:00 UTC unterschrieben/,
      ],
      [
        'es',
        'Idioma',
        'Otra persona ya ha firmado',
        /^Ann Martin firmó este documento el 22 de noviembre de 2026 a las 10:00 UTC/,
      ],
    ] as const
    let label = 'Language'
    for (const [lang, next, heading, text] of languages) {
      await page.getByLabel(label).selectOption(lang)
      await page.getByRole('heading', { name: heading }).waitFor()
      assert.match((await page.locator('.screen p').first().textContent()) ?? '', text)
      await screenshot(page, `group-signed-by-other-${lang}-1280`)
      label = next
    }
    await page.context().close()
  })
})
