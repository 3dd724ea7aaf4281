// The signing page in a real browser (Debian's chromium through playwright-core): a signer draws
// with the mouse, fills every field type and signs; a phone-width signer does it all with the
// keyboard; a signer declines; the embed page inside a client's iframe tells its parent; the
// screens of the other states. Screenshots at 375 and 1280 px land in SHOTS_DIR (test/browser.ts).
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  closeBrowserApp,
  DESKTOP,
  drawStroke,
  fillPlainFields,
  openBrowserApp,
  PHONE,
  screenshot,
  tabTo,
  typeSignature,
} from '../../test/browser.ts'
import type { TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  everyTypeBody,
  guardedBody,
  mailedCode,
  submissionRow,
  submitterRow,
} from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'

const pathOf = (url: string) => new URL(url).pathname

describe('the signing page in a browser', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  before(async () => {
    ;({ t, key, base, browser } = await openBrowserApp())
  })
  after(() => closeBrowserApp(t, browser))

  /** A new page at the signer's URL; `watch` runs before the navigation (listeners that must not miss a request). */
  async function open(
    url: string,
    viewport = DESKTOP,
    locale = 'en-GB',
    watch?: (page: Page) => void,
  ): Promise<Page> {
    const context = await browser.newContext({ viewport, locale, deviceScaleFactor: 1 })
    const page = await context.newPage()
    page.on('pageerror', (error) => assert.fail(`script error on the page: ${error.message}`))
    watch?.(page)
    await page.goto(`${base}${pathOf(url)}`)
    return page
  }

  const worker = () => drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })

  it('desktop: draws a signature with the mouse, fills every field type, signs', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody())
    const requested: string[] = []
    let opened: Promise<unknown> = Promise.resolve()
    const page = await open(created.submitters[0]!.signing_url, DESKTOP, 'en-GB', (p) => {
      p.on('request', (request) => requested.push(request.url()))
      opened = p.waitForResponse((r) => r.url().endsWith('/open') && r.status() === 200)
    })
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    await opened
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'opened')
    await page
      .locator('.page img')
      .first()
      .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode())
    await screenshot(page, 'ready-1280')

    await page.locator('[data-field="Signature"]').click()
    await drawStroke(page, 'dialog canvas')
    await screenshot(page, 'signature-draw-1280')
    await page.getByRole('button', { name: 'Use this signature' }).click()
    await typeSignature(page, 'Initials', 'FS')
    await fillPlainFields(page, {
      date: '2026-11-23',
      name: 'Łukasz Żółć',
      amount: '1250,5',
      plan: 'pro',
      country: 'DE',
    })
    await assert.doesNotReject(page.getByText('Everything is filled in: review and sign.').waitFor())
    await screenshot(page, 'filled-1280')
    await page.getByRole('button', { name: 'Sign', exact: true }).click()
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    await screenshot(page, 'signed-1280')

    const row = await submitterRow(t, created.submitters[0]!.id)
    assert.equal(row.status, 'signed')
    const values = JSON.parse(row.values ?? '{}') as Record<string, unknown>
    assert.equal(values.Name, 'Łukasz Żółć')
    assert.equal(values.Amount, 1250.5)
    assert.equal(values.Agree, true)
    assert.equal(values.Plan, 'pro')
    assert.equal(values.Country, 'DE')
    assert.equal(values.Date, '2026-11-23')
    assert.ok(values.Signature && values.Initials, 'both images stored')
    const outside = requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'))
    assert.deepEqual(outside, [], 'nothing loaded from outside Paraph')
    await page.context().close()
  })

  it('after signing, goes to redirect_url', async () => {
    const target: Server = createServer((_req, res) =>
      res.end('<!doctype html><title>Back at the client</title><h1>Thanks</h1>'),
    )
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    try {
      const redirect = `http://127.0.0.1:${(target.address() as AddressInfo).port}/done?from=paraph`
      const created: Created = await createSubmission(t, key, {
        ...(await everyTypeBody(['first'])),
        redirect_url: redirect,
      })
      const page = await open(created.submitters[0]!.signing_url, PHONE)
      await page.getByRole('heading', { name: 'Contract' }).waitFor()
      // The two image fields typed (the dialog offers the signer's name or initials), the rest filled.
      await typeSignature(page, 'Signature')
      await typeSignature(page, 'Initials')
      await fillPlainFields(page, { date: '2026-11-23', name: 'Redirected', plan: 'pro', country: 'FR' })
      await page.getByRole('button', { name: 'Sign', exact: true }).click()
      await page.waitForURL(redirect)
      assert.equal(await page.title(), 'Back at the client')
      assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'signed')
      await page.context().close()
    } finally {
      await new Promise((resolve) => target.close(resolve))
    }
  })

  it('a link past expires_at shows the expired screen, even before the sweep ran', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 60 * 60 * 1000).toISOString()
    const created: Created = await createSubmission(t, key, {
      ...(await everyTypeBody()),
      expires_at: expiresAt,
    })
    t.clock.advance(2 * 60 * 60 * 1000)
    const page = await open(created.submitters[0]!.signing_url, PHONE)
    await page.getByRole('heading', { name: 'This request has expired' }).waitFor()
    await screenshot(page, 'expired-375')
    await page.context().close()
  })

  it('phone, keyboard only: every field reached and filled with Tab, Enter and typing, then signed', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody())
    // en-US: the date field takes month, day, year as typed.
    const page = await open(created.submitters[0]!.signing_url, PHONE, 'en-US')
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    await screenshot(page, 'ready-375')
    await tabTo(page, '[data-field="Signature"]')
    await page.keyboard.press('Enter')
    await tabTo(page, 'dialog .tab:nth-child(2)')
    await page.keyboard.press('Space')
    await page.keyboard.type('First Signer')
    await screenshot(page, 'signature-type-375')
    await page.keyboard.press('Enter')
    await page.locator('dialog').waitFor({ state: 'detached' })
    const steps: Array<[string, () => Promise<void>]> = [
      [
        'Initials',
        async () => {
          // The initials dialog opens by itself on an empty initials field; type them.
          await tabTo(page, 'dialog .tab:nth-child(2)')
          await page.keyboard.press('Space')
          await page.keyboard.press('Enter')
          await page.locator('dialog').waitFor({ state: 'detached' })
        },
      ],
      ['Date', async () => page.keyboard.type('11232026')],
      ['Name', async () => page.keyboard.type('Keyboard Person')],
      ['Amount', async () => page.keyboard.type('42')],
      ['Agree', async () => page.keyboard.press('Space')],
      ['Plan', async () => page.keyboard.press('Space')],
      [
        'Country',
        async () => {
          await page.keyboard.press('ArrowDown')
          await page.keyboard.press('ArrowDown')
        },
      ],
    ]
    for (const [, act] of steps) {
      await tabTo(page, '.nav button:last-child')
      await page.keyboard.press('Enter')
      await act()
    }
    const empty = await page
      .locator('.field.is-required:not(.is-filled)')
      .evaluateAll((all) => all.map((e) => e.getAttribute('data-field')))
    assert.deepEqual(empty, [], 'every required field filled')
    await tabTo(page, 'button.sign')
    // Strings: this file is compiled without the DOM library; the page evaluates them.
    const focusRing = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')
    assert.notEqual(focusRing, 'none', 'focus is visible')
    await screenshot(page, 'sign-375')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    await screenshot(page, 'signed-375')
    const values = JSON.parse((await submitterRow(t, created.submitters[0]!.id)).values ?? '{}')
    assert.equal(values.Name, 'Keyboard Person')
    assert.equal(values.Amount, 42)
    assert.equal(values.Agree, true)
    assert.equal(values.Plan, 'basic')
    assert.equal(values.Country, 'DE')
    assert.match(values.Date, /^2026-11-23$/)
    await page.context().close()
  })

  it('declines with a reason', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody())
    const page = await open(created.submitters[0]!.signing_url, PHONE)
    await page.getByRole('button', { name: 'Decline' }).click()
    await page.getByLabel('Tell the sender why (required)').fill('The amount is wrong.')
    await page.locator('dialog').getByRole('button', { name: 'Decline to sign' }).click()
    await page.getByRole('heading', { name: 'Declined' }).waitFor()
    const row = await submissionRow(t, created.id)
    assert.equal(row.status, 'declined')
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).decline_reason, 'The amount is wrong.')
    // The page's language goes with the refusal.
    assert.equal((await submitterRow(t, created.submitters[0]!.id)).page_language, 'en')
    await page.context().close()
  })

  it('embed: inside a client page on another origin, tells the parent it was opened and signed', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody(['first']))
    const embed = `${base}${pathOf(created.submitters[0]!.embed_src)}`
    const host: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(
        `<!doctype html><script>window.got=[];addEventListener('message',e=>got.push(e.data))</script><iframe src="${embed}" style="width:1000px;height:800px"></iframe>`,
      )
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage()
    try {
      await page.goto(`http://localhost:${(host.address() as AddressInfo).port}/`)
      const frame = page.frameLocator('iframe')
      await frame.getByRole('heading', { name: 'Contract' }).waitFor()
      await page.waitForFunction("window.got.some((m) => m.type === 'paraph:opened')")
      await fillPlainFields(frame, { date: '2026-11-23', name: 'Embedded', plan: 'basic', country: 'FR' })
      await typeSignature(frame, 'Signature', 'E')
      await typeSignature(frame, 'Initials', 'E')
      await frame.getByRole('button', { name: 'Sign', exact: true }).click()
      await frame.getByRole('heading', { name: 'You have signed' }).waitFor()
      const messages = await page.waitForFunction(
        "window.got.some((m) => m.type === 'paraph:signed') && window.got",
      )
      const list = (await messages.jsonValue()) as Array<Record<string, string>>
      for (const type of ['paraph:opened', 'paraph:signed']) {
        assert.deepEqual(
          list.find((m) => m.type === type),
          {
            type,
            submitter_id: created.submitters[0]!.id,
            submission_id: created.id,
          },
        )
      }
    } finally {
      await page.context().close()
      await new Promise((resolve) => host.close(resolve))
    }
  })

  it('e-mail code: the code screen first, the document only after the mailed code (link: the cookie)', async () => {
    const created: Created = await createSubmission(t, key, await guardedBody(['first'], [0]))
    const page = await open(created.submitters[0]!.signing_url, PHONE)
    await page.getByRole('heading', { name: 'Confirm your e-mail address' }).waitFor()
    assert.equal(await page.locator('.page').count(), 0, 'no page of the document before the code')
    await page.getByRole('button', { name: 'Send me a code' }).click()
    await page.getByText('A code is on its way to first@example.eu').waitFor()
    await screenshot(page, 'code-375')
    await page.setViewportSize(DESKTOP)
    await screenshot(page, 'code-1280')
    await page.setViewportSize(PHONE)
    await page.getByLabel('6-digit code').fill('000000')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByText('This code is not right').waitFor()
    await page.getByLabel('6-digit code').fill(await mailedCode(t, created.submitters[0]!.id))
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    await page
      .locator('.page img')
      .first()
      .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode())
    const row = await submitterRow(t, created.submitters[0]!.id)
    assert.ok(row.email_2fa_verified_at, 'verification recorded')
    assert.equal(row.status, 'opened', 'opened only once the document shows')
    // A reload keeps the session (the HttpOnly cookie on the link's path).
    await page.reload()
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    await page.context().close()
  })

  it('e-mail code inside a client iframe: the page keeps the session in memory and signs', async () => {
    const created: Created = await createSubmission(t, key, await guardedBody(['first'], [0]))
    const embed = `${base}${pathOf(created.submitters[0]!.embed_src)}`
    const host: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(`<!doctype html><iframe src="${embed}" style="width:1000px;height:800px"></iframe>`)
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage()
    try {
      await page.goto(`http://localhost:${(host.address() as AddressInfo).port}/`)
      const frame = page.frameLocator('iframe')
      await frame.getByRole('button', { name: 'Send me a code' }).click()
      await frame.getByLabel('6-digit code').waitFor()
      await frame.getByLabel('6-digit code').fill(await mailedCode(t, created.submitters[0]!.id))
      await frame.getByRole('button', { name: 'Continue' }).click()
      await frame.getByRole('heading', { name: 'Contract' }).waitFor()
      await fillPlainFields(frame, { date: '2026-11-23', name: 'Framed', plan: 'basic', country: 'FR' })
      await typeSignature(frame, 'Signature', 'F')
      await typeSignature(frame, 'Initials', 'F')
      await frame.getByRole('button', { name: 'Sign', exact: true }).click()
      await frame.getByRole('heading', { name: 'You have signed' }).waitFor()
      assert.equal((await submitterRow(t, created.submitters[0]!.id)).status, 'signed')
    } finally {
      await page.context().close()
      await new Promise((resolve) => host.close(resolve))
    }
  })

  it('every other state has its screen: waiting, completed with the signed PDF, cancelled', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody())
    const second = await open(created.submitters[1]!.signing_url, PHONE)
    await second.getByRole('heading', { name: 'Not your turn yet' }).waitFor()
    await screenshot(second, 'waiting-375')
    await second.context().close()

    const cancelled: Created = await createSubmission(t, key, await everyTypeBody())
    const res = await t.request(key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
    assert.equal(res.statusCode, 200, res.body)
    const page = await open(cancelled.submitters[0]!.signing_url, PHONE, 'fr-FR')
    await page.getByRole('heading', { name: 'Cette demande a été annulée' }).waitFor()
    await page.context().close()

    const single = await createSubmission(t, key, {
      ...(await everyTypeBody(['first'])),
    })
    const { FIRST_VALUES } = await import('../../test/signing.ts')
    const signed = await t.app.inject({
      method: 'POST',
      url: `${pathOf(single.submitters[0]!.signing_url)}/sign`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ values: FIRST_VALUES }),
    })
    assert.equal(signed.statusCode, 200, signed.body)
    await worker()
    assert.equal((await submissionRow(t, single.id)).status, 'completed')
    const done = await open(single.submitters[0]!.signing_url, DESKTOP)
    await done.getByRole('heading', { name: 'Signed by everyone' }).waitFor()
    await screenshot(done, 'completed-1280')
    const href = await done.getByRole('link', { name: 'Download the signed PDF' }).getAttribute('href')
    assert.ok(href)
    // Signed file URLs name PUBLIC_URL; this app listens elsewhere, so the path is fetched from it.
    const url = new URL(href)
    const pdf = await fetch(`${base}${url.pathname}${url.search}`)
    assert.equal(pdf.status, 200)
    assert.equal(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    )
    await done.context().close()
  })
})
