// The editor loses no work (issue #33 item 1), in a real browser against the real server: what is
// drawn is saved on the draft as it goes; leaving with changes not yet saved as a template asks
// first — a console link and the browser's Back open the editor's dialog (Stay keeps the page,
// Leave goes), a reload gets the browser's beforeunload prompt; reopening resumes the work, from
// the draft's address or from the offer on the editor's first screen. axe on the dialog and the
// offer, screenshots at 1280 and 375 px.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import type { Dialog } from 'playwright-core'
import { axe, check } from '../../test/console/console-browser-kit.ts'
import { draw, editorSuite, upload } from '../../test/console/editor-browser-kit.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'

describe('the template editor keeps its work (a browser)', () => {
  const { session, open } = editorSuite()

  it('asks before leaving with unsaved changes (a link, Back, a reload) and resumes the draft when reopened', async () => {
    const page = await open({ path: '/templates' })
    // In through the console's own link, so Back has a console page to return to.
    await page.getByRole('link', { name: 'New template' }).click()
    await page.getByRole('heading', { name: 'Upload a PDF, an HTML page or a Word document' }).waitFor()
    await upload(page, await pdfOfPages([PageSizes.A4]), 'Lease.pdf')
    await page.locator('.editor-page[data-page="1"]').waitFor()
    await page.waitForURL(/\/console\/templates\/new\?draft=tdr_\w+$/)
    const draftUrl = page.url()

    await page.locator('#template-name').fill('Lease 2027')
    await draw(page, { page: 1, x: 0.1, y: 0.7, w: 0.3, h: 0.06 })
    await page.getByText('1 fields').waitFor()
    await page.getByText('Draft saved').waitFor()

    // A console link: the dialog; Stay keeps the page and its work.
    await page.getByRole('link', { name: '← Back to templates' }).click()
    const dialog = page.getByRole('dialog', { name: 'Leave the editor?' })
    await dialog.getByText('kept as a draft for 24 hours').waitFor()
    await axe(page, 'editor-leave-dialog')
    await check(page, 'editor-leave-dialog', [1280, 375])
    await dialog.getByRole('button', { name: 'Stay' }).click()
    await dialog.waitFor({ state: 'detached' })
    assert.equal(page.url(), draftUrl)
    await page.locator('[data-field="Signature 1"]').waitFor()

    // The browser's Back: the same dialog, the address kept while it is open; Leave goes back.
    await page.evaluate('history.back()')
    await dialog.waitFor()
    assert.equal(page.url(), draftUrl, 'the page keeps its address while the person chooses')
    // The keyboard: Tab reaches Leave after Stay, Enter leaves.
    await dialog.getByRole('button', { name: 'Stay' }).focus()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${session.base}/console/templates`)
    await page.getByRole('heading', { name: 'Templates' }).waitFor()

    // Reopened: the editor offers the draft; resuming brings back the name and the field.
    await page.getByRole('link', { name: 'New template' }).click()
    const offer = page.getByRole('region', { name: 'Resume your draft' })
    await offer.getByRole('button', { name: 'Resume “Lease 2027”' }).waitFor()
    await check(page, 'editor-resume-offer', [1280, 375])
    await offer.getByRole('button', { name: 'Resume “Lease 2027”' }).click()
    await page.locator('[data-field="Signature 1"]').waitFor()
    assert.equal(await page.locator('#template-name').inputValue(), 'Lease 2027')
    assert.equal(page.url(), draftUrl)

    // A reload with a change: the browser's own prompt (beforeunload), accepted; the draft's
    // address resumes the work, the second field included.
    await draw(page, { page: 1, x: 0.5, y: 0.2, w: 0.3, h: 0.06 })
    await page.getByText('2 fields').waitFor()
    await page.getByText('Draft saved').waitFor()
    const prompts: string[] = []
    const onDialog = (d: Dialog) => {
      prompts.push(d.type())
      d.accept()
    }
    page.on('dialog', onDialog)
    await page.reload()
    page.off('dialog', onDialog)
    assert.deepEqual(prompts, ['beforeunload'])
    await page.locator('[data-field="Signature 2"]').waitFor()
    await page.getByText('2 fields').waitFor()
    await check(page, 'editor-resumed', [1280, 375])

    // Saved as a template: leaving asks nothing, and the draft is no longer offered.
    await page.locator('#template-slug').fill('lease-2027')
    await page.getByRole('button', { name: 'Save template' }).click()
    await page.waitForURL(`${session.base}/console/templates`)
    const listed = page.waitForResponse((r) => r.url().endsWith('/console/api/template_drafts'))
    await page.getByRole('link', { name: 'New template' }).click()
    await page.getByRole('heading', { name: 'Upload a PDF, an HTML page or a Word document' }).waitFor()
    assert.deepEqual((await (await listed).json()).data, [])
    assert.equal(await page.getByRole('heading', { name: 'Resume your draft' }).count(), 0)
    await page.context().close()
  })

  it('Start anew discards the offered draft', async () => {
    const page = await open()
    await upload(page, await pdfOfPages([PageSizes.A4]), 'Offer.pdf')
    await page.waitForURL(/\?draft=tdr_\w+$/)
    await page.goto(`${session.base}/console/templates/new`)
    const offer = page.getByRole('region', { name: 'Resume your draft' })
    await offer.getByRole('button', { name: 'Resume “Offer”' }).waitFor()
    await offer.getByRole('button', { name: 'Start anew' }).click()
    await offer.waitFor({ state: 'detached' })
    const listed = page.waitForResponse((r) => r.url().endsWith('/console/api/template_drafts'))
    await page.goto(`${session.base}/console/templates/new`)
    await page.getByRole('heading', { name: 'Upload a PDF, an HTML page or a Word document' }).waitFor()
    assert.deepEqual((await (await listed).json()).data, [])
    assert.equal(await page.getByRole('region', { name: 'Resume your draft' }).count(), 0)
    await page.context().close()
  })
})
