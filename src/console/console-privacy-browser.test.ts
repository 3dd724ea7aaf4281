// The console's side of purges, legal holds and erasures in a real browser against the real server
// (docs/console.md#purge-legal-holds-and-erasure): an admin purges an ended submission from its page
// with the keyboard (the dialog keeps the focus, says what goes), the page then shows the banner,
// signers by role, the timeline and no download; a hold placed from pasted ids makes a purge refuse
// in words, and is released after a confirmation; active submissions and editors get no purge; an
// erasure is confirmed, then its report followed until completed. axe on every state, screenshots at
// 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { check as checkAt, openConsole, SHOTS, settled } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { fromPdfBody, post } from '../../test/documents.ts'
import { startTestApp, type TestApp, whatHappened } from '../../test/harness.ts'
import { work } from '../../test/purge.ts'
import { SIGNATURE } from '../../test/signing.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

describe('purges, legal holds and erasures in the console (a browser)', () => {
  let t: TestApp
  let keys: Keys
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let editor: ConsoleClient

  /** A submission for `email`: completed (its only signer pre-signed, sealed by the worker) or sent. */
  const submissionFor = async (email: string, state: 'completed' | 'sent') => {
    const signer =
      state === 'completed'
        ? {
            role: 'signer',
            email,
            completed: true,
            fields: [{ name: 'Signature', readonly: true, default_value: SIGNATURE }],
          }
        : { role: 'signer', email, name: 'Erin Example' }
    const created = await post(
      t,
      keys.testKey,
      '/v1/submissions/from_pdf',
      await fromPdfBody({ submitters: [signer] }),
    )
    assert.equal(created.statusCode, 201, whatHappened(t, created))
    await work(t)
    const id = created.json().id as string
    assert.equal((await api('GET', `/v1/submissions/${id}`)).status, state)
    return id
  }
  const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    (await t.request(keys.testKey, { method, url, ...(payload ? { payload } : {}) })).json()
  const check = (page: Page, name: string) => checkAt(page, name, [1280, 375])
  /**
   * Tab never reaches the page behind the open (modal) dialog: focus is inside the dialog, or on
   * nothing while it passes through the browser's own controls, and comes back to the dialog.
   */
  const focusStaysIn = async (page: Page, n: number) => {
    const where = () =>
      page.evaluate(
        '(() => { const e = document.activeElement; return !e || e === document.body ? "none" : e.closest("dialog[open]") ? "dialog" : "page: " + e.outerHTML.slice(0, 80) })()',
      ) as Promise<string>
    const seen: string[] = []
    for (let i = 0; i < n; i++) {
      await page.keyboard.press('Tab')
      seen.push(await where())
    }
    assert.deepEqual(
      seen.filter((w) => w.startsWith('page')),
      [],
      'focus left the dialog',
    )
    assert.equal(seen.at(-1), 'dialog', seen.join(', '))
  }

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_TEST: '100000' } })
    keys = await t.account('Acme Legal')
    admin = await signedInMember(t, keys.accountId, { email: 'ada@example.eu' })
    editor = await signedInMember(t, keys.accountId, { role: 'editor' })
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    closePdfFinalizer()
    await browser?.close()
    await t?.close()
  })

  it('an admin purges an ended submission with the keyboard; the page then shows what remains', async () => {
    const id = await submissionFor('ann@example.eu', 'completed')
    const { context, page } = await openConsole(browser, base, admin)
    const gone: string[] = []
    page.on('response', (r) => r.status() === 410 && gone.push(r.url()))
    await page.goto(`${base}/console/submissions/${id}`)
    await settled(page)
    await page.getByRole('link', { name: 'Signed PDF' }).waitFor()

    await page.getByRole('button', { name: 'Purge now…' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Purge this submission?' })
    await dialog.getByText('This cannot be undone.').waitFor()
    await dialog.getByText(/the signed PDF and the audit trail/).waitFor()
    await focusStaysIn(page, 4)
    await check(page, 'purge-dialog')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    assert.equal((await api('GET', `/v1/submissions/${id}`)).purged_at, null, 'Escape purges nothing')

    await page.getByRole('button', { name: 'Purge now…' }).focus()
    await page.keyboard.press('Enter')
    await dialog.getByRole('button', { name: 'Purge' }).focus()
    await page.keyboard.press('Enter')
    await page
      .getByRole('heading', { name: /^Purged on .+: its documents and personal data were deleted$/ })
      .waitFor()
    const purged = await api('GET', `/v1/submissions/${id}`)
    assert.notEqual(purged.purged_at, null)
    assert.equal(await page.locator('a[download], a[href*="/files/"], a[href*="audit_log"]').count(), 0)
    assert.equal(await page.getByRole('button', { name: 'Purge now…' }).count(), 0)
    const signers = page.getByRole('region', { name: 'Signers' })
    await signers.getByText('signer', { exact: true }).waitFor()
    await signers.getByText('Deleted').waitFor()
    assert.equal(await page.getByText('ann@example.eu').count(), 0)
    await page.getByText('Purged: documents and personal data deleted').waitFor()
    await check(page, 'purge-done')
    assert.deepEqual(gone, [], 'nothing the page asked for answered 410')
    await context.close()
  })

  it('a hold placed from pasted ids makes a purge refuse in words; released after a confirmation', async () => {
    const held = await submissionFor('hal@example.eu', 'completed')
    const other = await submissionFor('hal@example.eu', 'sent')
    const { context, page } = await openConsole(browser, base, admin)
    await page.goto(`${base}/console/submissions`)
    await page.getByRole('link', { name: 'Legal holds' }).click()
    await page.getByRole('heading', { name: 'Legal holds', level: 1 }).waitFor()
    await page.getByText('No legal hold.').waitFor()
    await check(page, 'holds-empty')

    await page.getByRole('button', { name: 'Place a hold…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Place a legal hold' })
    await page.getByLabel('Submissions').fill(`sub_nope\n${held.slice(0, 10)}`)
    await page.getByLabel('Reason').fill('Case 2026-114')
    await dialog.getByRole('button', { name: 'Place a legal hold' }).click()
    const refusal = dialog.getByRole('alert')
    await refusal.waitFor()
    assert.match(await refusal.innerText(), /^Submission 1: must be an id beginning with sub_/)
    await page.getByLabel('Submissions').fill(`${held}\n${other}, ${held}`)
    await dialog.getByText('2 submissions').waitFor()
    await focusStaysIn(page, 6)
    await check(page, 'holds-place')
    await dialog.getByRole('button', { name: 'Place a legal hold' }).click()
    await dialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Case 2026-114/ })
    await row.getByRole('link', { name: held }).waitFor()
    await row.getByRole('link', { name: other }).waitFor()
    await check(page, 'holds-list')

    // The held submission, through the hold's link: its purge is refused in words.
    await row.getByRole('link', { name: held }).click()
    await page.waitForURL(`${base}/console/submissions/${held}`)
    await page.getByRole('button', { name: 'Purge now…' }).click()
    const purge = page.getByRole('dialog', { name: 'Purge this submission?' })
    await purge.getByRole('button', { name: 'Purge' }).click()
    const held409 = purge.getByRole('alert')
    await held409.getByText(/^A legal hold keeps this submission: it cannot be purged/).waitFor()
    assert.match(await held409.innerText(), /legal_hold_active · HTTP 409/)
    await check(page, 'purge-held')
    await purge.getByRole('button', { name: 'Cancel' }).click()
    assert.equal((await api('GET', `/v1/submissions/${held}`)).purged_at, null)

    // Released with a confirmation; the status filter then finds it under Released only.
    await page.goto(`${base}/console/legal-holds`)
    await settled(page)
    await page.getByRole('button', { name: 'Release the hold “Case 2026-114”' }).click()
    const release = page.getByRole('dialog', { name: 'Release this legal hold?' })
    await release.getByText(/Its 2 submissions are no longer kept by it/).waitFor()
    await release.getByRole('button', { name: 'Release', exact: true }).click()
    await release.waitFor({ state: 'detached' })
    await page
      .getByRole('row', { name: /Case 2026-114/ })
      .getByText('Released')
      .waitFor()
    await page.getByLabel('Status').selectOption('active')
    await page.getByText('No active legal hold.').waitFor()
    await page.getByLabel('Status').selectOption('released')
    await page.getByRole('row', { name: /Case 2026-114/ }).waitFor()
    await check(page, 'holds-released')
    const [hold] = (await api('GET', '/v1/legal_holds')).data
    assert.equal(hold.status, 'released')
    assert.deepEqual(hold.submission_ids, [held, other])
    await context.close()
  })

  it('no purge for an active submission, nor for an editor, who reads holds (in French) without changing them', async () => {
    const active = await submissionFor('act@example.eu', 'sent')
    const ended = await submissionFor('act@example.eu', 'completed')
    const a = await openConsole(browser, base, admin)
    await a.page.goto(`${base}/console/submissions/${active}`)
    await a.page.getByRole('button', { name: 'Cancel submission' }).waitFor()
    await settled(a.page)
    assert.equal(await a.page.getByRole('button', { name: 'Purge now…' }).count(), 0)
    await a.context.close()

    // The editor reads in French: the same page without purge, the holds without their actions.
    const e = await openConsole(browser, base, editor, 'fr-FR')
    await e.page.goto(`${base}/console/submissions/${ended}`)
    await e.page.getByRole('link', { name: 'PDF signé' }).waitFor()
    assert.equal(await e.page.getByRole('button', { name: /Purger/ }).count(), 0)
    await e.page.getByRole('link', { name: 'Conservations légales' }).click()
    await e.page
      .getByText('Seul un administrateur du compte peut placer ou lever une conservation.')
      .waitFor()
    await settled(e.page)
    assert.equal(await e.page.getByRole('button', { name: /Placer|Lever/ }).count(), 0)
    assert.equal(await e.page.getByRole('link', { name: 'Effacer une personne' }).count(), 0)
    await check(e.page, 'holds-editor-fr')
    await e.context.close()
  })

  it('an erasure is confirmed, then its report followed until completed, each outcome in words', async () => {
    const email = 'erin@example.eu'
    const ended = await submissionFor(email, 'completed')
    const active = await submissionFor(email, 'sent')
    const kept = await submissionFor(email, 'completed')
    await api('POST', '/v1/legal_holds', { submission_ids: [kept], reason: 'Audit' })
    const { context, page } = await openConsole(browser, base, admin, 'en-GB')
    await page.goto(`${base}/console/submissions`)
    await page.getByRole('link', { name: 'Erase a person' }).click()
    await page.getByRole('heading', { name: 'Erase a person’s data', level: 1 }).waitFor()
    await check(page, 'erasure-form')

    await page.getByLabel('Their e-mail address').fill(email)
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: `Erase ${email}’s data?` })
    await dialog.getByText(/listed in the report and not purged/).waitFor()
    await check(page, 'erasure-confirm')
    await dialog.getByRole('button', { name: 'Erase' }).click()
    await page.waitForURL(/\/console\/erasures\/era_/)
    await page.getByText('Under way: 0 of 3 submissions handled.').waitFor()
    await check(page, 'erasure-pending')

    await work(t)
    await page.getByText(/^Completed .+: 1 purged, 2 not purged, of 3 found\.$/).waitFor()
    const outcome = (id: string) => page.getByRole('row', { name: new RegExp(id) })
    await outcome(ended).getByText('Purged', { exact: true }).waitFor()
    await outcome(active)
      .getByText(/^Not purged: still active/)
      .waitFor()
    await outcome(kept).getByText('Not purged: a legal hold keeps it').waitFor()
    assert.equal(await page.getByText(email).count(), 0, 'the address is not shown')
    await check(page, 'erasure-completed')
    await outcome(ended).getByRole('link', { name: ended }).click()
    await page.getByRole('heading', { name: /^Purged on / }).waitFor()
    await context.close()
  })
})
