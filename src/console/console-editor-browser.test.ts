// The template editor in a real browser against the real server: a two-role template drawn with
// the mouse on a generated two-page PDF, saved (a taken slug shown on its field first, a double
// click making one template), then read back with the API key: every field where it was drawn
// (within 0.5 % of the page), its role, created_via "ui". Also: arrow keys nudge by 1 pt, undo and
// redo, axe-core on the editor, screenshots, and a 100-page PDF loading its pages as they come near (its time is a bench row). An HTML
// document's tags become fields and a tag report; on a touch screen a finger moves and resizes a
// field while the page's empty space still scrolls; a saved template opens again as a new draft.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { type ConsoleClient, signedInMember } from '../../test/console.ts'
import { createTemplateFor } from '../../test/documents.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import type { TestApp } from '../../test/harness.ts'
import { startTestApp } from '../../test/harness.ts'
import { check, openConsole, SHOTS } from './console-browser-kit.ts'

const A4_WIDTH = PageSizes.A4[0]

interface Drawn {
  page: number
  x: number
  y: number
  w: number
  h: number
}

describe('the template editor in a browser', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let base: string
  let browser: Browser
  let editor: ConsoleClient

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '100000' } })
    keys = await t.account('Acme Legal')
    await createTemplateFor(t, keys.testKey, { name: 'Existing lease', slug: 'lease' })
    // An editor (not an admin) may make templates.
    editor = await signedInMember(t, keys.accountId, { role: 'editor', email: 'eve@example.eu' })
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  async function open(
    options: { viewport?: { width: number; height: number }; hasTouch?: boolean; path?: string } = {},
  ): Promise<Page> {
    const { page } = await openConsole(browser, base, editor, 'en-GB', {
      viewport: options.viewport ?? { width: 1280, height: 900 },
      hasTouch: options.hasTouch ?? false,
    })
    await page.goto(`${base}/console${options.path ?? '/templates/new'}`)
    if (!options.path)
      await page.getByRole('heading', { name: 'Upload a PDF, an HTML page or a Word document' }).waitFor()
    return page
  }

  /** Uploads the file; resolves once the upload answered, with that moment (ms). */
  async function upload(
    page: Page,
    pdf: Uint8Array,
    name: string,
    mimeType = 'application/pdf',
  ): Promise<number> {
    const answered = page.waitForResponse((r) => r.url().includes('/console/api/template_drafts?'))
    await page.locator('#editor-file').setInputFiles({ name, mimeType, buffer: Buffer.from(pdf) })
    assert.equal((await answered).status(), 201)
    return performance.now()
  }

  /** Drags on the page from one fraction to another, as a person would with the mouse. */
  async function draw(page: Page, area: Drawn): Promise<void> {
    const box = page.locator(`.editor-page[data-page="${area.page}"]`)
    await box.scrollIntoViewIfNeeded()
    const r = (await box.boundingBox())!
    await page.mouse.move(r.x + area.x * r.width, r.y + area.y * r.height)
    await page.mouse.down()
    await page.mouse.move(r.x + (area.x + area.w / 2) * r.width, r.y + (area.y + area.h / 2) * r.height, {
      steps: 4,
    })
    await page.mouse.move(r.x + (area.x + area.w) * r.width, r.y + (area.y + area.h) * r.height, { steps: 4 })
    await page.mouse.up()
  }

  /** Waits until a page's image is loaded (run in the page, which has the DOM this file's types lack). */
  const imageShown = (page: Page, n: number) =>
    page.waitForFunction((n) => {
      type Img = { complete: boolean; naturalWidth: number }
      const doc = (globalThis as unknown as { document: { querySelector(s: string): Img | null } }).document
      const img = doc.querySelector(`.editor-page[data-page="${n}"] img`)
      return img?.complete === true && img.naturalWidth > 0
    }, n)

  const leftFraction = (page: Page, name: string) =>
    page
      .locator(`[data-field="${name}"]`)
      .evaluate((el) => Number.parseFloat((el as unknown as { style: { left: string } }).style.left) / 100)

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

    // Undo removes the last drawing step, redo brings it back (nudges are steps too).
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Control+z')
    await page.getByText('2 fields').waitFor()
    await page.keyboard.press('Control+Shift+z')
    await page.getByText('3 fields').waitFor()
    await field.click()
    await check(page, 'editor-fields', [1280, 768])

    // A taken slug: shown on the slug field; nothing made.
    await page.locator('#template-name').fill('Lease')
    await page.locator('#template-slug').fill('lease')
    await page.getByRole('button', { name: 'Save template' }).click()
    await page.getByText('Another template already uses this slug').waitFor()
    assert.equal(await page.locator('#template-slug').getAttribute('aria-invalid'), 'true')
    await page.screenshot({ path: join(SHOTS, 'editor-slug-taken-1280.png') })

    await page.locator('#template-slug').fill('lease-2026')
    await page.getByRole('button', { name: 'Save template' }).dblclick()
    await page.waitForURL(`${base}/console/templates`)
    await page.getByText('Template “Lease” saved.').waitFor()

    const list = await t.request(keys.testKey, { method: 'GET', url: '/v1/templates?created_via=ui' })
    const made = list.json().data
    assert.equal(made.length, 1, 'a double click made one template')
    const template = (
      await t.request(keys.testKey, { method: 'GET', url: `/v1/templates/${made[0].id}` })
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

    // The initials copied onto pages 2 and 3, at the same place.
    await initials.click()
    await page.getByRole('button', { name: 'Copy onto every page' }).click()
    await page.getByText('4 fields').waitFor()
    for (const n of [2, 3]) {
      const copy = page.locator(`.editor-page[data-page="${n}"] [data-field="Initials 1 (p. ${n})"]`)
      assert.equal(await copy.count(), 1)
      assert.equal(await leftFraction(page, `Initials 1 (p. ${n})`), await leftFraction(page, 'Initials 1'))
    }

    // A witness's field; preview as the first party shows only the first party's fields.
    await page.getByRole('button', { name: 'Add a role' }).click()
    await page.getByLabel('Draw fields for Party 2').check()
    await draw(page, { page: 1, x: 0.6, y: 0.8, w: 0.3, h: 0.06 })
    await page.getByText('5 fields').waitFor()
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
    assert.equal(body.documents[0].fields.length, 5)
    assert.equal(body.documents[0].pdf_base64, '<the PDF, base64>')
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

  /** A field's box as the editor holds it: fractions of its page, read from its style. */
  const fractions = async (page: Page, name: string) => {
    // No named function inside: the test's compiler would wrap it in a helper the page lacks.
    const [x, y, w, h] = await page.locator(`[data-field="${name}"]`).evaluate((el) => {
      const style = (el as unknown as { style: Record<'left' | 'top' | 'width' | 'height', string> }).style
      return [style.left, style.top, style.width, style.height].map((v) => Number.parseFloat(v) / 100)
    })
    return { x: x!, y: y!, w: w!, h: h! }
  }

  /** Saves under a name and slug; resolves with the template read back with the API key. */
  async function saveAndRead(page: Page, name: string, slug: string) {
    await page.locator('#template-name').fill(name)
    await page.locator('#template-slug').fill(slug)
    const saved = page.waitForResponse((r) => /\/template_drafts\/tdr_\w+\/template$/.test(r.url()))
    await page.getByRole('button', { name: 'Save template' }).click()
    const response = await saved
    assert.equal(response.status(), 201)
    const id = (await response.json()).id
    return (await t.request(keys.testKey, { method: 'GET', url: `/v1/templates/${id}` })).json()
  }

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

    // A finger over the page's empty space scrolls the window and draws nothing.
    const empty = { x: pageBox.x + pageBox.width / 2, y: Math.min(pageBox.y + pageBox.height - 40, 600) }
    await touch(path(empty, 0, -250, 10))
    await page.waitForFunction(`scrollY > ${Number(scrollBefore) + 50}`, undefined, { timeout: 5000 })
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
      await t.request(keys.testKey, { method: 'GET', url: '/v1/templates?created_via=ui&limit=100' })
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
