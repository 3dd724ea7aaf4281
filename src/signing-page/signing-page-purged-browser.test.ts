// The signing page of a purged submission in a real browser (docs/api.md#the-signing-page): the
// signer who signed saw the completed screen with the sealed PDF to download; after the purge the
// same link shows only that the document was deleted, in the signer's language, with no name, no
// address and no download. Screenshots at 375 and 1280 px in SHOTS_DIR (test/browser.ts).
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
} from '../../test/browser.ts'
import type { TestApp } from '../../test/harness.ts'
import { markPurged } from '../../test/purged.ts'
import {
  type Created,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  signer,
  signerPath,
} from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

describe('the signing page of a purged submission', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  let created: Created
  before(async () => {
    ;({ t, key, base, browser } = await openBrowserApp())
    created = await createSubmission(t, key, await everyTypeBody(['first']))
    const sign = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(sign.statusCode, 200, sign.body)
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  })
  after(async () => {
    closePdfFinalizer()
    await closeBrowserApp(t, browser)
  })

  it('the completed screen offered the download; after the purge the link says only why, at 375 and 1280 px', async () => {
    const url = `${base}${signerPath(created.submitters[0]!)}`
    const page = await openSignerPage(browser, url, { viewport: PHONE })
    await page.locator('a.download-link').waitFor()
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1)

    // Marked purged by a direct UPDATE (test/purged.ts) until the purge route lands.
    await markPurged(t, created.id)
    const answer = await page.reload()
    assert.equal(answer?.status(), 410)
    await page.getByRole('heading', { name: 'This document is no longer available' }).waitFor()
    await page.getByText('It was deleted by its sender under their data retention policy.').waitFor()
    assert.equal(await page.locator('a').count(), 0, 'no link, no download')
    const text = await page.locator('body').innerText()
    for (const personal of ['first@example.eu', 'FIRST', 'Contract', 'Łukasz']) {
      assert.ok(!text.includes(personal), `the page shows ${personal}`)
    }
    await screenshot(page, 'purged-375')
    await page.setViewportSize(DESKTOP)
    await screenshot(page, 'purged-1280')
    await page.context().close()
  })

  it('in the language the signer reads (French)', async () => {
    const page = await openSignerPage(browser, `${base}${signerPath(created.submitters[0]!)}`, {
      locale: 'fr-FR',
    })
    await page.getByRole('heading', { name: "Ce document n'est plus disponible" }).waitFor()
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr')
    await screenshot(page, 'purged-fr-1280')
    await page.context().close()
  })
})
