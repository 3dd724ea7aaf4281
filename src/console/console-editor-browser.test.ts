// The template editor in a real browser against the real server: a two-role template drawn with
// the mouse on a generated two-page PDF, saved (a taken slug shown on its field first, a double
// click making one template), then read back with the API key: every field where it was drawn
// (within 0.5 % of the page), its role, created_via "ui". Also: arrow keys nudge by 1 pt, undo and
// redo, axe-core on the editor, screenshots, and a 100-page PDF loading its pages as they come near
// (its time is a bench row). HTML documents, touch and Duplicate: console-editor-documents-browser.test.ts.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { check, SHOTS } from '../../test/console/console-browser-kit.ts'
import {
  A4_WIDTH,
  type Drawn,
  draw,
  editorSuite,
  fractions,
  imageShown,
  leftFraction,
  upload,
} from '../../test/console/editor-browser-kit.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'

describe('the template editor in a browser', () => {
  const { session, open } = editorSuite()

  it('a two-role template drawn with the mouse is saved where it was drawn, created_via ui', async () => {
    const page = await open()
    await check(page, 'editor-upload', [1280, 768])
    await upload(page, await pdfOfPages([PageSizes.A4, PageSizes.A4]), 'lease.pdf')
    await page.locator('.editor-page[data-page="2"]').waitFor()

    // Roles: the default renamed, a second one added and named.
    await page.getByLabel('Name of role 1').fill('Tenant')
    await page.getByLabel('Name of role 1').blur()
    await page.getByRole('button', { name: 'Add a role' }).click()
    await page.getByLabel('Name of role 2').fill('Landlord')
    await page.getByLabel('Name of role 2').blur()

    const tenantSignature: Drawn = { page: 1, x: 0.1, y: 0.7, w: 0.3, h: 0.06 }
    const landlordText: Drawn = { page: 2, x: 0.5, y: 0.2, w: 0.35, h: 0.04 }
    const landlordSignature: Drawn = { page: 2, x: 0.12, y: 0.8, w: 0.32, h: 0.07 }
    await page.getByLabel('Draw fields for Tenant').check()
    await page.getByLabel('Signature', { exact: true }).check()
    await draw(page, tenantSignature)
    await page.getByLabel('Draw fields for Landlord').check()
    await page.getByLabel('Text', { exact: true }).check()
    await draw(page, landlordText)
    await page.getByLabel('Signature', { exact: true }).check()
    await draw(page, landlordSignature)
    await page.getByText('3 fields').waitFor()
    assert.equal(await page.locator('#field-role').inputValue(), 'Landlord')

    // Keyboard: the arrow nudges the focused field by 1 pt, Shift by 10 pt.
    const field = page.locator('[data-field="Signature 2"]')
    await field.focus()
    const x0 = await leftFraction(page, 'Signature 2')
    await page.keyboard.press('ArrowRight')
    assert.ok(Math.abs((await leftFraction(page, 'Signature 2')) - x0 - 1 / A4_WIDTH) < 1e-6, 'moved by 1 pt')
    await page.keyboard.press('Shift+ArrowLeft')
    assert.ok(
      Math.abs((await leftFraction(page, 'Signature 2')) - x0 + 9 / A4_WIDTH) < 1e-6,
      'then back 10 pt',
    )
    await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('ArrowLeft')
    assert.ok(Math.abs((await leftFraction(page, 'Signature 2')) - x0) < 1e-6)

    // Alt+arrows resize it (right and down grow it; Shift: 10 pt), from its top left corner.
    const box0 = await fractions(page, 'Signature 2')
    const url = page.url()
    await page.keyboard.press('Alt+ArrowRight')
    await page.keyboard.press('Alt+Shift+ArrowDown')
    const box1 = await fractions(page, 'Signature 2')
    assert.ok(Math.abs(box1.w - box0.w - 1 / A4_WIDTH) < 1e-6, 'wider by 1 pt')
    assert.ok(Math.abs(box1.h - box0.h - 10 / PageSizes.A4[1]) < 1e-6, 'taller by 10 pt')
    assert.ok(Math.abs(box1.x - box0.x) < 1e-9 && Math.abs(box1.y - box0.y) < 1e-9, 'the corner stays')
    assert.equal(page.url(), url, 'Alt+arrows never navigate')

    // The six presses in a row on one field are one undo step: one Ctrl+Z puts it back as drawn.
    await page.keyboard.press('Control+z')
    assert.deepEqual(await fractions(page, 'Signature 2'), box0)
    await page.getByText('3 fields').waitFor()

    // Delete keeps the keyboard's place: focus moves on to another field; undo brings it back.
    await field.focus()
    await page.keyboard.press('Delete')
    await page.getByText('2 fields').waitFor()
    await page.locator('.editor-field:focus').waitFor()
    await page.keyboard.press('Control+z')
    await page.getByText('3 fields').waitFor()

    // Undo removes the last drawing step, redo brings it back.
    await page.keyboard.press('Control+z')
    await page.getByText('2 fields').waitFor()
    await page.keyboard.press('Control+Shift+z')
    await page.getByText('3 fields').waitFor()
    await field.click()
    await check(page, 'editor-fields', [1280, 768])

    // At 768 px the selected field's properties stay in sight beside it, pinned to the window's foot.
    const size = page.viewportSize()!
    await page.setViewportSize({ width: 768, height: 1024 })
    await field.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }),
    )
    const sheet = (await page.locator('.editor-properties').boundingBox())!
    const fieldBox = (await field.boundingBox())!
    assert.ok(sheet.y >= 0 && sheet.y + sheet.height <= 1024 + 1, 'the properties are in the window')
    assert.ok(fieldBox.y >= 0 && fieldBox.y + fieldBox.height <= sheet.y, 'the field is in sight above them')
    await page.screenshot({ path: join(SHOTS, 'editor-selected-sheet-768.png') })
    await page.setViewportSize(size)

    // A taken slug: shown on the slug field; nothing made.
    await page.locator('#template-name').fill('Lease')
    await page.locator('#template-slug').fill('lease')
    await page.getByRole('button', { name: 'Save template' }).click()
    await page.getByText('Another template already uses this slug').waitFor()
    assert.equal(await page.locator('#template-slug').getAttribute('aria-invalid'), 'true')
    await page.screenshot({ path: join(SHOTS, 'editor-slug-taken-1280.png') })

    await page.locator('#template-slug').fill('lease-2026')
    await page.getByRole('button', { name: 'Save template' }).dblclick()
    await page.waitForURL(`${session.base}/console/templates`)
    await page.getByText('Template “Lease” saved.').waitFor()

    const list = await session.t.request(session.keys.testKey, {
      method: 'GET',
      url: '/v1/templates?created_via=ui',
    })
    const made = list.json().data
    assert.equal(made.length, 1, 'a double click made one template')
    const template = (
      await session.t.request(session.keys.testKey, { method: 'GET', url: `/v1/templates/${made[0].id}` })
    ).json()
    assert.equal(template.created_via, 'ui')
    assert.equal(template.slug, 'lease-2026')
    const expected = [
      ['Signature 1', 'signature', 'Tenant', tenantSignature],
      ['Text 1', 'text', 'Landlord', landlordText],
      ['Signature 2', 'signature', 'Landlord', landlordSignature],
    ] as const
    assert.equal(template.fields.length, expected.length)
    for (const [name, type, role, drawn] of expected) {
      const saved = template.fields.find((f: { name: string }) => f.name === name)
      assert.ok(saved, `${name} saved`)
      assert.equal(saved.type, type)
      assert.equal(saved.role, role)
      const area = saved.areas[0]
      assert.equal(area.page, drawn.page)
      for (const k of ['x', 'y', 'w', 'h'] as const) {
        assert.ok(Math.abs(area[k] - drawn[k]) <= 0.005, `${name}.${k}: ${area[k]} drawn at ${drawn[k]}`)
      }
    }
    await page.context().close()
  })

  it('keyboard Add field, corner resize, alignment guide while moving, copy onto every page, preview as a role', async () => {
    const page = await open()
    await upload(page, await pdfOfPages([PageSizes.A4, PageSizes.A4, PageSizes.A4]), 'initials.pdf')
    await page.locator('.editor-page[data-page="3"]').waitFor()

    // Keyboard only: the button places a default-sized field on the visible page and focuses it.
    await page.getByLabel('Initials', { exact: true }).check()
    await page.getByRole('button', { name: 'Add field' }).press('Enter')
    const initials = page.locator('[data-field="Initials 1"]')
    await page.locator('[data-field="Initials 1"]:focus').waitFor()
    assert.equal(await initials.evaluate((el) => el.closest('.editor-page')?.getAttribute('data-page')), '1')

    // A corner dragged 40 px right makes the field 40 px wider.
    const before = (await initials.boundingBox())!
    const handle = (await page.locator('[data-field="Initials 1"] .editor-handle.se').boundingBox())!
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
    await page.mouse.down()
    await page.mouse.move(handle.x + handle.width / 2 + 40, handle.y + handle.height / 2, { steps: 4 })
    await page.mouse.up()
    const wider = (await initials.boundingBox())!
    assert.ok(Math.abs(wider.width - before.width - 40) < 1.5, `${before.width} → ${wider.width}`)
    assert.ok(Math.abs(wider.x - before.x) < 0.5, 'the left edge stays')

    // Moved to 2 px from the other's left edge: the guide shows, and the edges end aligned.
    await page.getByLabel('Signature', { exact: true }).check()
    await draw(page, { page: 1, x: 0.1, y: 0.6, w: 0.3, h: 0.06 })
    const signature = page.locator('[data-field="Signature 1"]')
    const s = (await signature.boundingBox())!
    await page.mouse.move(s.x + 20, s.y + 10)
    await page.mouse.down()
    await page.mouse.move(s.x + 20 + (wider.x - s.x) / 2, s.y + 10, { steps: 3 })
    await page.mouse.move(s.x + 20 + (wider.x - s.x) + 2, s.y + 10, { steps: 3 })
    assert.equal(await page.locator('.editor-guide.vertical').count(), 1, 'the guide is shown while moving')
    await page.mouse.up()
    assert.equal(await page.locator('.editor-guide').count(), 0)
    assert.equal(await leftFraction(page, 'Signature 1'), await leftFraction(page, 'Initials 1'))

    // The initials copied onto pages 2 and 3, at the same place: one field with an area per page.
    const initialsLeft = await leftFraction(page, 'Initials 1')
    await initials.click()
    await page.getByRole('button', { name: 'Copy onto every page' }).click()
    await page.locator('[data-field="Initials 1"]').nth(2).waitFor()
    await page.getByText('2 fields').waitFor()
    for (const n of [2, 3]) {
      const copy = page.locator(`.editor-page[data-page="${n}"] [data-field="Initials 1"]`)
      assert.equal(await copy.count(), 1)
      const left = await copy.evaluate((el) => (el as unknown as { style: { left: string } }).style.left)
      assert.equal(Number.parseFloat(left) / 100, initialsLeft)
    }

    // A witness's field; preview as the first party shows only the first party's fields.
    await page.getByRole('button', { name: 'Add a role' }).click()
    await page.getByLabel('Draw fields for Party 2').check()
    await draw(page, { page: 1, x: 0.6, y: 0.8, w: 0.3, h: 0.06 })
    await page.getByText('3 fields').waitFor()
    await page.getByLabel('Preview as').selectOption('First party')
    assert.equal(
      await page.locator('[data-field="Signature 2"]').count(),
      0,
      "the other role's field is hidden",
    )
    assert.equal(await page.locator('.editor-page[data-page="1"] .editor-field').count(), 2)
    await page.getByText('Preview: only the fields of this role').waitFor()
    await check(page, 'editor-preview', [1280, 768])
    await page.getByLabel('Preview as').selectOption('')
    assert.equal(await page.locator('[data-field="Signature 2"]').count(), 1)

    // The API panel shows the same fields, ready to copy.
    await page.getByText('The same with the API').click()
    const body = JSON.parse(await page.locator('.editor-api pre').first().innerText())
    assert.equal(body.documents[0].fields.length, 3)
    const copied = body.documents[0].fields.find((f: { name: string }) => f.name === 'Initials 1')
    assert.deepEqual(
      copied.areas.map((a: { page: number }) => a.page),
      [1, 2, 3],
    )
    assert.equal(body.documents[0].pdf_base64, '<the PDF, base64>')

    // Roles move and go. Party 2 moved up is the template's first role: its field comes first.
    await page.getByRole('button', { name: 'Move Party 2 up' }).click()
    const reordered = JSON.parse(await page.locator('.editor-api pre').first().innerText())
    assert.equal(reordered.documents[0].fields[0].role, 'Party 2')
    assert.equal(await page.getByRole('button', { name: 'Move Party 2 up' }).isDisabled(), true)
    // Removing a role with fields asks first, then takes its field with it; Undo brings both back.
    await page.getByRole('button', { name: 'Remove Party 2' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove the role Party 2?' })
    await dialog.getByText('Its 1 fields are removed with it').waitFor()
    await dialog.getByRole('button', { name: 'Remove the role and its fields' }).click()
    await page.getByText('2 fields').waitFor()
    assert.equal(await page.getByLabel('Draw fields for Party 2').count(), 0)
    await page.getByRole('button', { name: 'Undo' }).click()
    await page.getByText('3 fields').waitFor()
    await page.getByLabel('Draw fields for Party 2').waitFor()
    await page.context().close()
  })

  it('a 100-page PDF: page 1 shows, later pages load only when near', async (test) => {
    const page = await open()
    const images: string[] = []
    page.on('request', (request) => {
      if (/\/template_drafts\/tdr_\w+\/pages\//.test(request.url())) images.push(request.url())
    })
    const answeredAt = await upload(page, await pdfOfPages(Array(100).fill(PageSizes.A4)), 'hundred.pdf')
    await imageShown(page, 1)
    const firstPageMs = Math.round(performance.now() - answeredAt)
    assert.equal(await page.locator('.editor-page').count(), 100)
    test.diagnostic(
      `[editor] 100-page draft: page 1 shown ${firstPageMs} ms after the upload answered; ${images.length} page images asked for at first`,
    )
    // Its time is the bench's to judge (`npm run bench -- console`, target < 2 s): here only noted.
    assert.ok(images.length < 20, `only the pages near the view load (${images.length})`)
    await page.locator('.editor-page[data-page="60"]').scrollIntoViewIfNeeded()
    await imageShown(page, 60)
    await page.context().close()
  })
})
