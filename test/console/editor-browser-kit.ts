// What the template editor's browser tests share (console-editor-browser.test.ts and
// console-editor-documents-browser.test.ts): the real server with an account, an existing template
// and a signed-in editor, a browser, and the gestures a person makes in the editor.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before } from 'node:test'
import { PageSizes } from 'pdf-lib'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../browser.ts'
import { createTemplateFor } from '../documents.ts'
import { startTestApp, type TestApp } from '../harness.ts'
import { openConsole, SHOTS } from './console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from './console-client.ts'

export const A4_WIDTH = PageSizes.A4[0]

/** An area drawn on a page, in fractions of it. */
export interface Drawn {
  page: number
  x: number
  y: number
  w: number
  h: number
}

export interface EditorSession {
  t: TestApp
  keys: Awaited<ReturnType<TestApp['account']>>
  base: string
  browser: Browser
  editor: ConsoleClient
}

/** The app listening on PUBLIC_URL's port (the console refuses writes from other origins), and a browser. */
export async function startEditorSession(): Promise<EditorSession> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '100000' } })
  const keys = await t.account('Acme Legal')
  await createTemplateFor(t, keys.testKey, { name: 'Existing lease', slug: 'lease' })
  // An editor (not an admin) may make templates.
  const editor = await signedInMember(t, keys.accountId, { role: 'editor', email: 'eve@example.eu' })
  await t.app.listen({ port, host: '127.0.0.1' })
  const browser = await launchBrowser()
  await mkdir(SHOTS, { recursive: true })
  return { t, keys, base, browser, editor }
}

export async function stopEditorSession(session: EditorSession | undefined): Promise<void> {
  await session?.browser.close()
  await session?.t.close()
}

/** The editor's upload screen (or `path` under /console), signed in as the editor. */
export async function openEditor(
  { browser, base, editor }: EditorSession,
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
export async function upload(
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
export async function draw(page: Page, area: Drawn): Promise<void> {
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
export const imageShown = (page: Page, n: number) =>
  page.waitForFunction((n) => {
    type Img = { complete: boolean; naturalWidth: number }
    const doc = (globalThis as unknown as { document: { querySelector(s: string): Img | null } }).document
    const img = doc.querySelector(`.editor-page[data-page="${n}"] img`)
    return img?.complete === true && img.naturalWidth > 0
  }, n)

export const leftFraction = (page: Page, name: string) =>
  page
    .locator(`[data-field="${name}"]`)
    .evaluate((el) => Number.parseFloat((el as unknown as { style: { left: string } }).style.left) / 100)

/** A field's box as the editor holds it: fractions of its page, read from its style. */
export async function fractions(page: Page, name: string) {
  // No named function inside: the test's compiler would wrap it in a helper the page lacks.
  const [x, y, w, h] = await page.locator(`[data-field="${name}"]`).evaluate((el) => {
    const style = (el as unknown as { style: Record<'left' | 'top' | 'width' | 'height', string> }).style
    return [style.left, style.top, style.width, style.height].map((v) => Number.parseFloat(v) / 100)
  })
  return { x: x!, y: y!, w: w!, h: h! }
}

/** Saves under a name and slug; resolves with the template read back with the API key. */
export async function saveAndRead({ t, keys }: EditorSession, page: Page, name: string, slug: string) {
  await page.locator('#template-name').fill(name)
  await page.locator('#template-slug').fill(slug)
  const saved = page.waitForResponse((r) => /\/template_drafts\/tdr_\w+\/template$/.test(r.url()))
  await page.getByRole('button', { name: 'Save template' }).click()
  const response = await saved
  assert.equal(response.status(), 201)
  const id = (await response.json()).id
  return (await t.request(keys.testKey, { method: 'GET', url: `/v1/templates/${id}` })).json()
}

/**
 * Registers the suite's before and after (a session of its own per test file), and returns the
 * session (filled once before has run) with open and saveAndRead bound to it.
 */
export function editorSuite() {
  const session = {} as EditorSession
  before(async () => {
    Object.assign(session, await startEditorSession())
  })
  after(() => stopEditorSession(session.t ? session : undefined))
  return {
    session,
    open: (options?: Parameters<typeof openEditor>[1]) => openEditor(session, options),
    saveAndRead: (page: Page, name: string, slug: string) => saveAndRead(session, page, name, slug),
  }
}
