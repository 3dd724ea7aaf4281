// What the console's browser tests share: a browser context signed in with a member's cookie, the
// wait for a page to settle, and the check every page passes — axe-core finds nothing, then a
// screenshot at each width into SHOTS (artefacts to look at, not committed).
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import type { ConsoleClient } from './console-client.ts'

export const SHOTS = process.env.PARAPH_CONSOLE_SHOTS_DIR ?? '/tmp/paraph-console-shots'
/** A phone, a tablet (the "usable" width) and a laptop (its "looks finished" width). */
export const WIDTHS = [375, 768, 1280]
const AXE = readFile(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8')

/** A browser context, signed in with the member's session cookie when one is given. */
export async function openConsole(
  browser: Browser,
  base: string,
  member?: ConsoleClient,
  locale = 'en-GB',
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale, ...options })
  if (member) {
    await context.addCookies([
      {
        name: 'paraph_console',
        value: member.cookie.split('=')[1]!,
        url: base,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ])
  }
  const page = await context.newPage()
  watch(page)
  return { context, page }
}

/** A script error, or anything the CSP blocked, fails the test: the console needs neither. */
export function watch(page: Page): void {
  page.on('pageerror', (error) => assert.fail(`script error on the page: ${error.message}`))
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) assert.fail(message.text())
  })
}

/** The page settled: its heading drawn and nothing loading. */
export async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor()
  await page.locator('.loading').first().waitFor({ state: 'detached' })
}

/** axe-core finds no violation on the page as it is now. */
export async function axe(page: Page, name: string): Promise<void> {
  await page.evaluate(await AXE)
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => v.id + ": " + v.help + " (" + v.nodes.map((n) => n.target.join(" ")).join(", ") + ")"))',
  )) as string[]
  assert.deepEqual(violations, [], `${name}: accessibility violations`)
}

/**
 * When the page is wider than the window, the elements to blame, named for the failure message: past
 * the right edge and outside any scrolling box (a wide table's wrapper scrolls, not the page) —
 * unless positioned absolutely, which a box that is not itself positioned does not hold in.
 */
const TOO_WIDE = `(() => {
  const width = document.documentElement.clientWidth
  if (document.documentElement.scrollWidth <= width) return []
  const held = (e) => {
    if (getComputedStyle(e).position === 'absolute') return false
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true
    }
    return false
  }
  const name = (e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '')
  const past = [...document.body.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > width + 1)
  const loose = past.filter((e) => !held(e))
  const blamed = loose.filter((e) => !loose.includes(e.parentElement))
  return ['page ' + document.documentElement.scrollWidth + ' px', ...blamed.slice(0, 5).map(name)]
})()`

/** The buttons and links of a table's actions cell that lie outside the window, sideways. */
const ACTIONS_OUT = `(() => {
  const width = document.documentElement.clientWidth
  return [...document.querySelectorAll('td.actions :is(a, button)')]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > width + 1) })
    .map((e) => (e.getAttribute('aria-label') || e.textContent || '').trim())
})()`

/**
 * The table cells another element covers (issue #33: a sticky actions column hid the signers'
 * status): each cell scrolled into view, the element at its centre must be the cell or inside it.
 * Hidden cells (a closed <details>) are not looked at. The toasts pass over everything for a few
 * seconds and are looked through; with a modal dialog
 * open, only the cells inside it count (the backdrop covers the rest, as it should).
 */
const COVERED = `(() => {
  const dialog = document.querySelector('dialog:modal')
  const name = (e) => e ? e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') : 'nothing'
  const covered = []
  for (const td of document.querySelectorAll('td')) {
    if (dialog && !dialog.contains(td)) continue
    if (!td.checkVisibility({ visibilityProperty: true }) || td.getBoundingClientRect().width === 0) continue
    td.scrollIntoView({ block: 'center', inline: 'nearest' })
    const r = td.getBoundingClientRect()
    const hit = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2).find((e) => !e.closest('.toasts'))
    if (!hit || !td.contains(hit)) covered.push('"' + td.textContent.trim().slice(0, 30) + '" under ' + name(hit))
  }
  window.scrollTo(0, 0)
  return covered.slice(0, 5)
})()`

/** Tables wider than their frame (which would scroll sideways, hiding columns): their caption or first header. */
const TABLES_WIDE = `(() => [...document.querySelectorAll('.table-wrap')]
  .filter((wrap) => wrap.checkVisibility() && wrap.scrollWidth > wrap.clientWidth + 1)
  .map((wrap) => wrap.scrollWidth + ' px in ' + wrap.clientWidth + ' px: ' + (wrap.querySelector('caption, th')?.textContent ?? '')))()`

/** Ids (the copyable secondary text) that run out of the box they sit in: a card, a cell, a line. */
const IDS_OUT = `(() => [...document.querySelectorAll('.id-text code')]
  .filter((code) => {
    const box = code.closest('dd, td, p, li')
    if (!box || !code.checkVisibility({ visibilityProperty: true })) return false
    return code.getBoundingClientRect().right > box.getBoundingClientRect().right + 1
  })
  .map((code) => code.textContent))()`

/**
 * Settled, no axe violation, then a full-page screenshot at each width (`name-375.png`…); nothing
 * may be wider than the window at any of them, so a phone never scrolls the whole page sideways,
 * a table's actions (Send, Revoke, Remove…) are in sight without scrolling the table, every table
 * fits its frame (every column in sight), no table cell is covered by another element, and no id
 * runs out of its box.
 */
export async function check(page: Page, name: string, widths = WIDTHS): Promise<void> {
  await settled(page)
  await axe(page, name)
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
    const wide = (await page.evaluate(TOO_WIDE)) as string[]
    assert.deepEqual(wide, [], `${name} at ${width} px: wider than the window`)
    const out = (await page.evaluate(ACTIONS_OUT)) as string[]
    assert.deepEqual(out, [], `${name} at ${width} px: table actions out of sight`)
    const tables = (await page.evaluate(TABLES_WIDE)) as string[]
    assert.deepEqual(tables, [], `${name} at ${width} px: tables wider than their frame`)
    const covered = (await page.evaluate(COVERED)) as string[]
    assert.deepEqual(covered, [], `${name} at ${width} px: table cells covered by another element`)
    const ids = (await page.evaluate(IDS_OUT)) as string[]
    assert.deepEqual(ids, [], `${name} at ${width} px: ids out of their box`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}
