// The template editor in a real browser, with documents other than a drawn PDF: an HTML document's
// tags become fields and a tag report; on a touch screen a finger moves and resizes a field while
// the page's empty space still scrolls; a saved template opens again as a new draft (the HTML
// test's template: these tests run in order). The drawn PDF: console-editor-browser.test.ts.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { check } from '../../test/console/console-browser-kit.ts'
import { editorSuite, fractions, imageShown, upload } from '../../test/console/editor-browser-kit.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'

describe('the template editor in a browser: HTML, touch, duplicate', () => {
  const { session, open, saveAndRead } = editorSuite()

  it('an HTML document with tags: its fields on the pages, the roles they name, the tag report; saved as they are', async () => {
    const page = await open()
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Lease</title></head><body>
      <h1>Residential lease</h1>
      <p>Signed by the tenant: {{Tenant signature;role=Tenant;type=signature}}</p>
      <p>Date: {{Date signed;type=date}}</p>
      <p style="break-before: page">Landlord, name in capitals: {{Landlord name;role=Landlord;type=text}}</p>
      <p>Landlord: {{Landlord signature;role=Landlord}}</p>
    </body></html>`
    await upload(page, Buffer.from(html), 'lease.html', 'text/html')
    await page.getByRole('heading', { name: '4 fields found from tags' }).waitFor()
    const report = page.locator('.editor-tag-list li')
    assert.deepEqual(await report.allInnerTexts(), [
      'Tenant signature (Signature, Tenant): page 1',
      'Date signed (Date, Tenant): page 1',
      'Landlord name (Text, Landlord): page 2',
      'Landlord signature (Signature, Landlord): page 2',
    ])
    assert.equal(await page.locator('.editor-page[data-page="2"] .editor-field').count(), 2)
    assert.equal(await page.getByLabel('Name of role 1').inputValue(), 'Tenant')
    assert.equal(await page.getByLabel('Name of role 2').inputValue(), 'Landlord')
    await page.getByText('2 pages · 4 fields').waitFor()
    await imageShown(page, 1)
    await imageShown(page, 2)
    await check(page, 'editor-tag-report', [1280, 768])

    // Editable like a drawn field: the arrow moves the tag's field by 10 pt.
    const before = await fractions(page, 'Tenant signature')
    await page.locator('[data-field="Tenant signature"]').focus()
    await page.keyboard.press('Shift+ArrowDown')
    const moved = await fractions(page, 'Tenant signature')
    assert.ok(Math.abs(moved.y - before.y - 10 / 842) < 1e-6)

    await page.getByRole('button', { name: 'Hide' }).click()
    assert.equal(await page.locator('.editor-tag-report').count(), 0)
    const template = await saveAndRead(page, 'Lease from HTML', 'lease-html')
    assert.deepEqual(
      template.fields.map((f: { name: string; type: string; role: string; areas: { page: number }[] }) => [
        f.name,
        f.type,
        f.role,
        f.areas[0]!.page,
      ]),
      [
        ['Tenant signature', 'signature', 'Tenant', 1],
        ['Date signed', 'date', 'Tenant', 1],
        ['Landlord name', 'text', 'Landlord', 2],
        ['Landlord signature', 'signature', 'Landlord', 2],
      ],
    )
    assert.ok(Math.abs(template.fields[0].areas[0].y - moved.y) < 1e-5)
    await page.context().close()
  })

  it('touch: a finger moves a field and resizes it from its corner; over the empty page it scrolls', async () => {
    const page = await open({ viewport: { width: 390, height: 700 }, hasTouch: true })
    await upload(page, await pdfOfPages([PageSizes.A4, PageSizes.A4]), 'touch.pdf')
    await page.locator('.editor-page[data-page="2"]').waitFor()
    const cdp = await page.context().newCDPSession(page)
    const touch = async (points: { x: number; y: number }[]) => {
      const [first, ...rest] = points
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [first!] })
      for (const p of rest)
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] })
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    }
    const path = (from: { x: number; y: number }, dx: number, dy: number, steps = 8) =>
      Array.from({ length: steps + 1 }, (_, i) => ({
        x: from.x + (dx * i) / steps,
        y: from.y + (dy * i) / steps,
      }))

    await page.getByRole('button', { name: 'Add field' }).tap()
    const field = page.locator('[data-field="Signature 1"]')
    await field.scrollIntoViewIfNeeded()
    const pageBox = (await page.locator('.editor-page[data-page="1"]').boundingBox())!
    const start = await fractions(page, 'Signature 1')
    const scrollBefore = await page.evaluate('scrollY')

    // Moved 40 px right and 60 px down by a finger on the field; the window did not scroll.
    const f = (await field.boundingBox())!
    await touch(path({ x: f.x + f.width / 2, y: f.y + f.height / 2 }, 40, 60))
    const moved = await fractions(page, 'Signature 1')
    assert.equal(await page.evaluate('scrollY'), scrollBefore, 'dragging a field does not scroll')
    assert.ok(Math.abs(moved.x - start.x - 40 / pageBox.width) < 0.002, `x ${start.x} → ${moved.x}`)
    assert.ok(Math.abs(moved.y - start.y - 60 / pageBox.height) < 0.002, `y ${start.y} → ${moved.y}`)

    // Its bottom-right corner dragged 30 px right and 20 px down.
    const handle = (await page.locator('[data-field="Signature 1"] .editor-handle.se').boundingBox())!
    await touch(path({ x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }, 30, 20))
    const resized = await fractions(page, 'Signature 1')
    assert.ok(Math.abs(resized.x - moved.x) < 1e-6, 'the left edge stays')
    assert.ok(Math.abs(resized.w - moved.w - 30 / pageBox.width) < 0.002, `w ${moved.w} → ${resized.w}`)
    assert.ok(Math.abs(resized.h - moved.h - 20 / pageBox.height) < 0.002, `h ${moved.h} → ${resized.h}`)

    // A finger over the page's empty space scrolls the window and draws nothing (above the selected
    // field's sheet, which covers the window's foot on a narrow screen).
    const sheet = await page.locator('.editor-properties').boundingBox()
    const above = sheet ? sheet.y - 40 : 600
    const empty = {
      x: pageBox.x + pageBox.width / 2,
      y: Math.min(pageBox.y + pageBox.height - 40, 600, above),
    }
    await touch(path(empty, 0, -250, 10))
    await page.waitForFunction(
      (before) => (globalThis as unknown as { scrollY: number }).scrollY > before + 50,
      Number(scrollBefore),
      { timeout: 5000 },
    )
    assert.equal(await page.locator('.editor-field').count(), 1)

    const template = await saveAndRead(page, 'Touched', 'touched')
    const area = template.fields[0].areas[0]
    for (const k of ['x', 'y', 'w', 'h'] as const)
      assert.ok(Math.abs(area[k] - resized[k]) <= 0.005, `${k}: saved ${area[k]}, shown ${resized[k]}`)
    await page.context().close()
  })

  it('Duplicate and edit: a saved template opens as a new draft with its fields; saved, it is another template', async () => {
    const page = await open({ path: '/templates' })
    const row = page.getByRole('row', { name: /Lease from HTML/ })
    await row.getByRole('link', { name: 'Duplicate and edit Lease from HTML' }).click()
    await page.getByRole('heading', { name: 'New template from a copy' }).waitFor()
    await page.locator('.editor-page[data-page="2"] [data-field="Landlord name"]').waitFor()
    await page.getByText('2 pages · 4 fields').waitFor()
    assert.equal(await page.locator('#template-name').inputValue(), 'Lease from HTML')
    const copy = await saveAndRead(page, 'Lease from HTML, v2', 'lease-html-v2')
    const original = (
      await session.t.request(session.keys.testKey, {
        method: 'GET',
        url: '/v1/templates?created_via=ui&limit=100',
      })
    )
      .json()
      .data.find((x: { slug: string }) => x.slug === 'lease-html')
    assert.ok(original, 'the original is kept')
    assert.notEqual(copy.id, original.id)
    assert.equal(copy.slug, 'lease-html-v2')
    assert.deepEqual(
      copy.fields.map((f: { name: string; role: string; areas: unknown[] }) => [f.name, f.role, f.areas]),
      original.fields.map((f: { name: string; role: string; areas: unknown[] }) => [f.name, f.role, f.areas]),
    )
    await page.context().close()
  })
})
