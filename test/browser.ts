// Real-browser tests of the signing page: Debian's chromium driven by playwright-core (no browser
// download exists here), a Paraph app listening on a loopback port, and screenshots kept as test
// artefacts (not committed) in PARAPH_SHOTS_DIR, by default a `paraph-shots` directory in the
// system's temporary directory.
import { mkdir } from 'node:fs/promises'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Frame, type FrameLocator, type Page } from 'playwright-core'
import { startTestApp, type TestApp } from './harness.ts'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const SHOTS_DIR = process.env.PARAPH_SHOTS_DIR ?? join(tmpdir(), 'paraph-shots')

export const PHONE = { width: 375, height: 812 }
export const DESKTOP = { width: 1280, height: 900 }

export function launchBrowser(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where chromium refuses its sandbox.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] })
}

/** A test app with an account, listening, and a browser: the set-up of the signing-page browser tests. */
export async function openBrowserApp(): Promise<{ t: TestApp; key: string; base: string; browser: Browser }> {
  const t = await startTestApp()
  const key = (await t.account()).testKey
  return { t, key, base: await listen(t), browser: await launchBrowser() }
}

export async function closeBrowserApp(t: TestApp | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close()
  await t?.close()
}

/** Makes the test app listen on a free loopback port; closed by t.close(). */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
}

/** A loopback port free right now: for an app whose links must name the port it will listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** A full-page screenshot under SHOTS_DIR; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SHOTS_DIR, { recursive: true })
  const path = join(SHOTS_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: false })
  return path
}

/** Presses Tab until the focused element matches `selector` (keyboard only); fails after `max`. */
export async function tabTo(page: Page, selector: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    // A string: the test code is compiled without the DOM library, the page evaluates it.
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${selector}`)
}

/** Draws a short zigzag stroke with the mouse across the element's box. */
export async function drawStroke(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).boundingBox()
  if (!box) throw new Error(`${selector} is not visible`)
  const y = box.y + box.height / 2
  await page.mouse.move(box.x + box.width * 0.15, y)
  await page.mouse.down()
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + box.width * (0.15 + i * 0.06), y + (i % 2 ? -1 : 1) * box.height * 0.25, {
      steps: 3,
    })
  }
  await page.mouse.up()
}

/** A page, or a frame of one (the embed page inside a client's iframe). */
export type PageScope = Page | FrameLocator

/** Picks a field on the page, then makes its value by typing in the signature dialog. */
export async function typeSignature(scope: PageScope, field: string, text?: string): Promise<void> {
  await scope.locator(`[data-field="${field}"]`).first().click()
  await scope.getByRole('button', { name: 'Type', exact: true }).click()
  if (text !== undefined) await scope.getByLabel('Type your name as you want it to appear.').fill(text)
  await scope.getByRole('button', { name: /^Use th/ }).click()
}

/** The non-image fields of test/signing.ts everyTypeBody, each picked on the page and filled in the panel. */
export async function fillPlainFields(
  scope: PageScope,
  values: { date: string; name: string; amount?: string; plan: 'basic' | 'pro'; country: 'FR' | 'DE' },
): Promise<void> {
  const pick = (field: string) => scope.locator(`[data-field="${field}"]`).first().click()
  await pick('Date')
  await scope.locator('.panel input[type="date"]').fill(values.date)
  await pick('Name')
  await scope.locator('.panel input[type="text"]').fill(values.name)
  if (values.amount !== undefined) {
    await pick('Amount')
    await scope.locator('.panel input[type="text"]').fill(values.amount)
  }
  await pick('Agree')
  await scope.locator('.panel input[type="checkbox"]').check()
  await pick('Plan')
  await scope.getByLabel(values.plan).check()
  await pick('Country')
  await scope.locator('.panel select').selectOption(values.country)
}

export interface SignerPageOptions {
  viewport?: { width: number; height: number }
  locale?: string
  timezoneId?: string
  /** Runs before the navigation: listeners and routes that must not miss a request. */
  watch?: (page: Page) => unknown
}

/**
 * A signer's page in a fresh context, any script error failing the test. Reduced motion: the page
 * then scrolls to a field at once, so element geometry read right after is final.
 */
export async function openSignerPage(
  browser: Browser,
  url: string,
  { viewport = DESKTOP, locale = 'en-GB', timezoneId, watch }: SignerPageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    locale,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    ...(timezoneId ? { timezoneId } : {}),
  })
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw new Error(`script error on the page: ${error.message}`)
  })
  await watch?.(page)
  await page.goto(url)
  return page
}

/**
 * Issue #20's phone target, from element geometry: the share of the window showing document pages
 * (between the top bar and the panel), of the window between them, and of the panel. Evaluated in
 * the page or frame that holds the signing page (in an iframe, its window is the iframe's box).
 */
export function documentShare(
  scope: Page | Frame,
): Promise<{ pages: number; between: number; panel: number }> {
  // A string: the test code is compiled without the DOM library, the page evaluates it.
  return scope.evaluate(`(() => {
    const W = innerWidth, H = innerHeight
    const top = Math.max(0, document.querySelector('.bar').getBoundingClientRect().bottom)
    const bottom = Math.min(H, document.querySelector('.panel').getBoundingClientRect().top)
    let area = 0
    for (const page of document.querySelectorAll('.page')) {
      const r = page.getBoundingClientRect()
      const h = Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, top))
      const w = Math.max(0, Math.min(r.right, W) - Math.max(r.left, 0))
      area += h * w
    }
    return { pages: area / (W * H), between: (bottom - top) / H, panel: (H - bottom) / H }
  })()`)
}

/** Computed style properties of the first element matching `selector` (string-evaluated, as above). */
export function computedStyle(
  scope: Page | Frame,
  selector: string,
  properties: string[],
): Promise<Record<string, string>> {
  return scope.evaluate(`(() => {
    const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)}))
    return Object.fromEntries(${JSON.stringify(properties)}.map((p) => [p, style.getPropertyValue(p)]))
  })()`)
}
