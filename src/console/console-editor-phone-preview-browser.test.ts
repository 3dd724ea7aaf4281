// The template editor at a phone's width (375 px, touch), and its preview as a signer, in a real
// browser against the real server. At 375 px: nothing wider than the window, axe finds nothing, the
// tools reachable — roles named, fields added with "Add field", the selected field's properties in
// the window with the field in sight above them, renamed there — and the template saved as drawn.
// The preview: "Sign as Client in a test copy" opens the real signing page in a new tab, on a
// test-environment copy (docs/console.md#preview-as-a-signer) that says it is a preview, shows the
// fields as drawn (unsaved ones included), mails nobody, and is signed there like any signing page.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { axe, check, SHOTS } from '../../test/console/console-browser-kit.ts'
import { draw, editorSuite, imageShown, upload } from '../../test/console/editor-browser-kit.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import { jobsOf } from '../../test/signing.ts'

describe('the template editor at 375 px, and its preview as a signer', () => {
  const { session, open, saveAndRead } = editorSuite()

  it('375 px, touch: roles named, fields added and changed from the sheet, saved as drawn', async () => {
    const page = await open({ viewport: { width: 375, height: 740 }, hasTouch: true })
    await check(page, 'editor-phone-upload', [375])
    await page.setViewportSize({ width: 375, height: 740 })
    await upload(page, await pdfOfPages([PageSizes.A4]), 'phone-lease.pdf')
    await imageShown(page, 1)

    await page.getByLabel('Name of role 1').fill('Tenant')
    await page.getByLabel('Name of role 1').blur()
    await page.getByRole('button', { name: 'Add a role' }).tap()
    await page.getByLabel('Name of role 2').fill('Landlord')
    await page.getByLabel('Name of role 2').blur()

    // "Add field" puts a field for the role being drawn for on the page in sight.
    await page.getByLabel('Draw fields for Tenant').check()
    await page.getByRole('button', { name: 'Add field' }).tap()
    await page.getByText('1 field', { exact: false }).first().waitFor()
    await page.getByLabel('Draw fields for Landlord').check()
    await page.getByLabel('Text', { exact: true }).check()
    await page.getByRole('button', { name: 'Add field' }).tap()
    await page.getByText('2 fields').waitFor()

    // The Landlord's field, tapped: its properties in the window, the field above them.
    const field = page.locator('[data-field="Text 1"]')
    await field.scrollIntoViewIfNeeded()
    await field.tap()
    const sheet = page.locator('.editor-properties')
    await sheet.waitFor()
    await field.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }),
    )
    await page.screenshot({ path: join(SHOTS, 'editor-phone-sheet-375.png') })
    const sheetBox = (await sheet.boundingBox())!
    const fieldBox = (await field.boundingBox())!
    assert.ok(
      sheetBox.y >= 0 && sheetBox.y + sheetBox.height <= 740 + 1,
      `the properties are in the window: ${JSON.stringify(sheetBox)}`,
    )
    assert.ok(sheetBox.x >= 0 && sheetBox.x + sheetBox.width <= 375 + 1, 'and no wider than it')
    assert.ok(
      fieldBox.y >= 0 && fieldBox.y + fieldBox.height <= sheetBox.y,
      'the field is in sight above them',
    )
    await page.locator('#field-name').fill('Landlord city')
    await page.locator('#field-name').blur()
    await page.locator('[data-field="Landlord city"]').waitFor()
    await axe(page, 'editor-phone-fields')
    const wide = await page.evaluate(() => {
      const root = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } }
        }
      ).document.documentElement
      return root.scrollWidth - root.clientWidth
    })
    assert.equal(wide, 0, 'the editor is no wider than the phone')
    await page.screenshot({ path: join(SHOTS, 'editor-phone-fields-375.png'), fullPage: true })

    const template = await saveAndRead(page, 'Phone lease', 'phone-lease')
    assert.deepEqual(
      template.fields.map((f: { name: string; type: string; role: string }) => [f.name, f.type, f.role]),
      [
        ['Signature 1', 'signature', 'Tenant'],
        ['Landlord city', 'text', 'Landlord'],
      ],
    )
    assert.equal(template.created_via, 'ui')
    await page.context().close()
  })

  it('preview as a signer: the real signing page of the role, a test copy that says so and sends nothing', async () => {
    const page = await open()
    await upload(page, await pdfOfPages([PageSizes.A4]), 'service.pdf')
    await imageShown(page, 1)
    await page.getByLabel('Name of role 1').fill('Client')
    await page.getByLabel('Name of role 1').blur()
    // A new role is the one drawn for; without a field it cannot be previewed yet, and the panel says why.
    await page.getByRole('button', { name: 'Add a role' }).click()
    const second = page.getByRole('button', { name: 'Sign as Party 2 in a test copy' })
    assert.equal(await second.isDisabled(), true)
    await page.getByText('Draw a field for Party 2 first.').waitFor()
    // Its name typed, then a field drawn at once (the input never left by the keyboard): the
    // field is the renamed role's.
    await page.getByLabel('Name of role 2').fill('Provider')
    await draw(page, { page: 1, x: 0.55, y: 0.8, w: 0.3, h: 0.06 })
    assert.equal(await page.locator('#field-role').inputValue(), 'Provider')
    await page.getByLabel('Draw fields for Client').check()
    await page.getByLabel('Text', { exact: true }).check()
    await draw(page, { page: 1, x: 0.1, y: 0.6, w: 0.3, h: 0.04 })
    await page.locator('#field-name').fill('Client city')
    await page.locator('#field-name').blur()
    await page.getByLabel('Signature', { exact: true }).check()
    await draw(page, { page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.06 })
    await page.getByText('3 fields').waitFor()

    // Preview as Client, then open the real page: a new tab, nothing saved as a template first.
    await page.locator('#preview-role').selectOption('Client')
    const tabOpened = page.context().waitForEvent('page')
    await page.getByRole('button', { name: 'Sign as Client in a test copy' }).click()
    const tab = await tabOpened
    await tab.waitForURL(/\/s\/[A-Za-z0-9_-]+$/)
    await tab.setViewportSize({ width: 375, height: 740 })
    await tab.getByText('This is a test copy made from the template editor').waitFor()
    await tab.getByRole('heading', { name: 'service' }).first().waitFor()
    // The signer reads the type's words for the name the editor made up ("Signature 2"), and the sender's own.
    assert.deepEqual(await tab.locator('.field .placeholder').allTextContents(), [
      'Client city',
      'Your signature',
    ])
    await tab.screenshot({ path: join(SHOTS, 'editor-preview-signing-375.png'), fullPage: true })
    await axe(tab, 'editor-preview-signing')
    await page.getByRole('link', { name: 'Open Client’s test copy again' }).waitFor()

    // The copy is a test submission marked preview, with the fields as drawn; no mail queued.
    const slug = new URL(tab.url()).pathname.split('/').pop()!
    const db = session.t.deps.db
    const signer = await db
      .selectFrom('submitters')
      .select(['submission_id', 'role', 'email'])
      .where('signing_slug', '=', slug)
      .executeTakeFirstOrThrow()
    assert.equal(signer.role, 'Client')
    const copy = await db
      .selectFrom('submissions')
      .select(['environment', 'preview', 'template_id'])
      .where('id', '=', signer.submission_id)
      .executeTakeFirstOrThrow()
    assert.deepEqual([copy.environment, copy.preview], ['test', 1])
    const fields = await db
      .selectFrom('templates')
      .select('fields')
      .where('id', '=', copy.template_id)
      .executeTakeFirstOrThrow()
    const names = (JSON.parse(String(fields.fields)) as { name: string; role: string }[]).map((f) => [
      f.name,
      f.role,
    ])
    assert.deepEqual(
      names.sort(),
      [
        ['Client city', 'Client'],
        ['Signature 2', 'Client'],
        ['Signature 1', 'Provider'],
      ].sort(),
    )
    assert.deepEqual(await jobsOf(session.t, 'mail.send'), [], 'the preview mails nobody')
    await page.context().close()
  })
})
