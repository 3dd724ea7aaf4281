// The console's actions in a real browser (Debian's chromium through playwright-core) against the
// real server: a signer's address changed (and the refusal once they signed), a signer reminded
// (and the next reminder refused in words), a submission
// cancelled and its PDF downloaded, a failing webhook delivery redelivered, the secret rotated and
// the endpoint deleted, a template archived; the test/live switch keeping submissions apart; and
// every page at 375, 768 and 1280 px. axe-core runs on every page opened; screenshots go to SHOTS.
// Forged writes and spent or expired sign-in links: console-access-browser.test.ts.
import assert from 'node:assert/strict'
import { mkdir, readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { axe, check, openConsole, SHOTS, settled } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { createTemplateFor, post } from '../../test/documents.ts'
import { SmtpTestServer } from '../../test/fixtures/smtp.ts'
import { answers, WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import type { TestApp } from '../../test/harness.ts'
import { startTestApp } from '../../test/harness.ts'
import { createSubmission, everyTypeBody, FIRST_VALUES, signer } from '../../test/signing.ts'
import { parseSignature, signatureHex } from '../../test/webhooks.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { WebhookDispatcher } from '../webhooks/dispatcher.ts'
import { SIGNATURE_HEADER } from '../webhooks/webhook-signature.ts'

type Keys = Awaited<ReturnType<TestApp['account']>>

describe('the console’s actions in a browser', () => {
  let t: TestApp
  let keys: Keys
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let smtp: SmtpTestServer
  let receiver: WebhookReceiver
  const work = async () => {
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    await new WebhookDispatcher(t.deps).drain()
  }
  const api = (method: 'GET' | 'DELETE', url: string, key = keys.testKey) => t.request(key, { method, url })

  before(async () => {
    // The console refuses writes from an origin other than PUBLIC_URL's: the app listens there. One
    // delivery attempt only, so a failing delivery is "failed" at once and can be redelivered.
    smtp = await SmtpTestServer.start()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({
      env: {
        PUBLIC_URL: base,
        SMTP_URL: smtp.url,
        ALLOW_PRIVATE_NETWORK_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0',
        RATE_LIMIT_TEST: '100000',
        RATE_LIMIT_LIVE: '100000',
      },
    })
    keys = await t.account('Acme Legal')
    admin = await signedInMember(t, keys.accountId, { email: 'ada@example.eu' })
    receiver = await WebhookReceiver.start()
    await t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await receiver?.close()
    await smtp?.stop()
    await t?.close()
  })

  async function go(page: Page, path: string): Promise<void> {
    await page.goto(`${base}/console${path}`)
    await settled(page)
  }

  it('submission detail: a signer’s address changed, a refusal shown, the original downloaded, then cancelled', async () => {
    const submission = await createSubmission(t, keys.testKey, await everyTypeBody())
    const other = await createSubmission(t, keys.testKey, await everyTypeBody())
    await work()
    const { context, page } = await openConsole(browser, base, admin)
    await go(page, `/submissions/${submission.id}`)
    await page.getByRole('link', { name: 'Original: Contract' }).waitFor()
    await check(page, 'actions-submission-detail')

    // The download is the PDF itself.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Original: Contract' }).click(),
    ])
    const bytes = await readFile((await download.path())!)
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-')

    // A pending signer's address changed: the API has it, and a signing request went to it.
    const first = submission.submitters[0]!
    await page.getByRole('button', { name: `Change signer ${first.email}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Change signer' })
    await dialog.getByLabel('E-mail address').fill('first.new@example.eu')
    await check(page, 'actions-change-signer')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('cell', { name: 'first.new@example.eu', exact: true }).waitFor()
    assert.equal((await api('GET', `/v1/submitters/${first.id}`)).json().email, 'first.new@example.eu')
    await work()
    const mail = smtp.to('first.new@example.eu').at(-1)
    assert.ok(mail, 'a signing request to the new address')
    assert.match(mail.text, new RegExp(`${base}/s/[0-9A-Za-z]+`))

    // The cancel goes through its confirm dialog; the page and the API then say cancelled.
    await page.getByRole('button', { name: 'Cancel submission' }).click()
    const confirm = page.getByRole('dialog', { name: 'Cancel submission' })
    await axe(page, 'actions-cancel-confirm')
    await confirm.getByRole('button', { name: 'Cancel submission' }).click()
    await confirm.waitFor({ state: 'detached' })
    await page.locator('.facts').getByText('Cancelled', { exact: true }).waitFor()
    assert.equal((await api('GET', `/v1/submissions/${submission.id}`)).json().status, 'cancelled')
    assert.equal(await page.getByRole('button', { name: 'Cancel submission' }).count(), 0)
    // The journal shows the cancel without a reload, and the downloads say why there is no signed PDF.
    await page.locator('.timeline').getByText('Cancelled', { exact: true }).waitFor()
    await page.getByText('No signed PDF: this submission ended before everyone signed.').waitFor()
    await check(page, 'actions-submission-cancelled')

    // A signer who signs while the dialog is open: the 409 is shown with its message, nothing changed.
    await go(page, `/submissions/${other.id}`)
    const signerOfOther = other.submitters[0]!
    await page.getByRole('button', { name: `Change signer ${signerOfOther.email}` }).click()
    const late = page.getByRole('dialog', { name: 'Change signer' })
    await late.getByLabel('E-mail address').fill('too.late@example.eu')
    const signed = await signer(t, signerOfOther, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    await late.getByRole('button', { name: 'Save' }).click()
    await late
      .getByRole('alert')
      .getByText(/This submitter is signed/)
      .waitFor()
    await late.getByText('submitter_already_finalized').waitFor()
    await axe(page, 'actions-change-signer-refused')
    assert.equal((await api('GET', `/v1/submitters/${signerOfOther.id}`)).json().email, signerOfOther.email)
    await context.close()
  })

  it('submission detail: each signer’s reminders, Remind now mails one, the next refused in people’s words', async () => {
    const policy = { first_after_hours: 24, every_hours: 24, max_count: 2 }
    const submission = await createSubmission(
      t,
      keys.testKey,
      await everyTypeBody(['first', 'second'], { signing_order: 'random', reminders: policy }),
    )
    await work()
    const first = submission.submitters[0]!
    const { context, page } = await openConsole(browser, base, admin)
    await go(page, `/submissions/${submission.id}`)
    const row = page.getByRole('row').filter({ hasText: first.email })
    await row.getByText('None sent').waitFor()
    await row.getByText(/^Next: /).waitFor()
    await check(page, 'actions-reminders')

    await page.getByRole('button', { name: `Remind now: ${first.email}` }).click()
    await page.getByText(`Reminder sent to ${first.email}.`).waitFor()
    await row.getByText('1 sent').waitFor()
    await page.locator('.timeline').getByText('FIRST was reminded').waitFor()
    await work()
    const mail = smtp.to(first.email).at(-1)
    assert.ok(mail?.subject.startsWith('Reminder: '), mail?.subject)

    // A second one within the hour: the 429 in words, with the wait in minutes.
    await page.getByRole('button', { name: `Remind now: ${first.email}` }).click()
    await page
      .getByRole('alert')
      .getByText('A reminder was sent less than an hour ago; try again in 60 minutes.')
      .waitFor()
    await check(page, 'actions-reminder-refused', [1280, 375])
    assert.equal((await api('GET', `/v1/submitters/${first.id}`)).json().reminders_sent, 1)
    await context.close()
  })

  it('webhook detail: a failed delivery with its answer, redelivered; the secret rotated; the endpoint deleted', async () => {
    const created = await post(t, keys.testKey, '/v1/webhook_endpoints', {
      url: receiver.url('/actions'),
      events: ['submission.created'],
    })
    assert.equal(created.statusCode, 201, created.body)
    const endpoint = created.json() as { id: string; secret: string }
    receiver.queue.push(answers.status(500, 'receiver down'))
    await createSubmission(t, keys.testKey, await everyTypeBody())
    await work()
    await receiver.waitFor(1)

    const { context, page } = await openConsole(browser, base, admin)
    await go(page, `/developers/webhooks/${endpoint.id}`)
    const delivery = page.locator('.delivery', { hasText: 'submission.created' }).first()
    await delivery.getByText('Failed', { exact: true }).waitFor()
    const details = delivery.getByRole('button', { name: /^Details submission\.created/ })
    await details.click()
    await delivery.getByRole('cell', { name: /HTTP 500/ }).waitFor()
    // The status once: the attempt's error says no more than it.
    assert.equal(
      (await delivery.getByRole('cell', { name: /HTTP 500/ }).innerText()).match(/HTTP 500/g)?.length,
      1,
    )
    // The request as POSTed (the bytes the receiver got), and the receiver's answer.
    await delivery.getByText('Request sent').click()
    const request = await delivery.locator('.delivery-request pre').innerText()
    assert.ok(request.startsWith(`POST ${receiver.url('/actions')}`), request)
    assert.deepEqual(JSON.parse(request.slice(request.indexOf('{'))), JSON.parse(receiver.received[0]!.body))
    await delivery.locator('.attempt-answer summary').first().click()
    await delivery.locator('.attempt-answer pre', { hasText: 'receiver down' }).waitFor()
    await go(page, '/developers/webhooks')
    await page.getByText('Last attempt failed (1 in a row)').waitFor()
    await go(page, `/developers/webhooks/${endpoint.id}`)
    await details.click()
    await check(page, 'actions-webhook-failed')

    // Redeliver: a new attempt, which the receiver (answering 200 again) gets; the endpoint's health
    // on the page follows without a reload.
    const lastSuccess = page.locator('.facts > div', { hasText: 'Last success' }).locator('dd')
    assert.equal(await lastSuccess.innerText(), '—')
    await delivery.getByRole('button', { name: /^Redeliver submission\.created/ }).click()
    await page.getByText('Redelivered: the endpoint accepted it.').waitFor()
    await receiver.waitFor(2)
    await lastSuccess.getByText(/\d/).waitFor()
    await page.reload()
    await settled(page)
    const again = page.locator('.delivery', { hasText: 'submission.created' }).first()
    await again.getByText('Delivered', { exact: true }).waitFor()
    await again.getByText('2 attempts').waitFor()

    // Rotate: the new secret shown once, and the next delivery's signature verifies with it.
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    await page
      .getByRole('dialog', { name: 'Rotate secret' })
      .getByRole('button', { name: 'Rotate secret' })
      .click()
    const shown = page.getByRole('dialog', { name: 'The new signing secret' })
    const secret = await shown.locator('code').innerText()
    assert.match(secret, /^whsec_/)
    assert.notEqual(secret, endpoint.secret)
    await check(page, 'actions-webhook-secret')
    await shown.getByRole('button', { name: 'I have stored it' }).click()
    await shown.waitFor({ state: 'detached' })
    assert.ok(!(await page.locator('body').innerText()).includes(secret), 'the secret is shown once')
    await createSubmission(t, keys.testKey, await everyTypeBody())
    await work()
    await receiver.waitFor(3)
    const hook = receiver.received[2]!
    const signature = parseSignature(hook.headers[SIGNATURE_HEADER.toLowerCase()])
    assert.ok(
      signature.v1.includes(signatureHex(secret, signature.t, hook.body)),
      'signed with the new secret',
    )

    // Delete: docs/api.md#endpoints deactivates the endpoint (GET then answers it with `active:
    // false`, not 404); it receives nothing more.
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const confirmDelete = page.getByRole('dialog', { name: 'Delete this endpoint?' })
    await axe(page, 'actions-webhook-delete-confirm')
    await confirmDelete.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.waitForURL(`${base}/console/developers/webhooks`)
    await settled(page)
    await page.getByText('Endpoint deleted.').waitFor()
    const deleted = await api('GET', `/v1/webhook_endpoints/${endpoint.id}`)
    assert.equal(deleted.statusCode, 200)
    assert.equal(deleted.json().active, false)
    await page
      .getByRole('row', { name: /actions/ })
      .getByText('Deactivated')
      .waitFor()
    await check(page, 'actions-webhooks-after-delete')
    await createSubmission(t, keys.testKey, await everyTypeBody())
    await work()
    assert.equal(receiver.received.length, 3, 'a deleted endpoint receives nothing')
    await context.close()
  })

  it('templates: archiving through the confirm dialog moves a template to the archived filter', async () => {
    await createTemplateFor(t, keys.testKey, { name: 'Old lease' })
    const { context, page } = await openConsole(browser, base, admin)
    await go(page, '/templates')
    await page.getByRole('button', { name: 'Archive Old lease' }).click()
    await page
      .getByRole('dialog', { name: 'Archive this template?' })
      .getByRole('button', { name: 'Archive' })
      .click()
    await page.getByText('“Old lease” archived.').waitFor()
    // The row, not a cell: its actions cell names the template too ("Duplicate and edit Old lease").
    await page.getByRole('row', { name: /Old lease/ }).waitFor({ state: 'detached' })
    await page.getByLabel('Status').selectOption('archived')
    await page.getByText('Old lease', { exact: true }).waitFor()
    await check(page, 'actions-templates-archived')
    await context.close()
  })

  it('the test/live switch: a live submission is not in the test list, a test one not in the live list', async () => {
    await createTemplateFor(t, keys.liveKey, { name: 'Live NDA' })
    const live = await createSubmission(t, keys.liveKey, await everyTypeBody())
    const test = await createSubmission(t, keys.testKey, await everyTypeBody())
    // A member of its own: the switch is the session's, and the other tests use `admin`'s in test.
    const bea = await signedInMember(t, keys.accountId, { email: 'bea@example.eu' })
    const { context, page } = await openConsole(browser, base, bea)
    await go(page, '/submissions')
    // A row is named after its template; its id is the secondary text beside.
    await page.getByText(test.id, { exact: true }).waitFor()
    assert.equal(await page.getByText(live.id, { exact: true }).count(), 0)
    await page.getByRole('button', { name: 'Live', exact: true }).click()
    await page.getByText(live.id, { exact: true }).waitFor()
    assert.equal(await page.getByText(test.id, { exact: true }).count(), 0)
    await check(page, 'actions-submissions-live')
    // A test submission's page opened in live is not found.
    await go(page, `/submissions/${test.id}`)
    await page.getByRole('alert').waitFor()
    await axe(page, 'actions-submission-other-environment')
    await context.close()
  })

  it('every page at 375, 768 and 1280 px: nothing wider than the window, no axe violation', async () => {
    const submission = await createSubmission(t, keys.testKey, await everyTypeBody())
    const hooks = await post(t, keys.testKey, '/v1/webhook_endpoints', {
      url: receiver.url('/every-page-with-a-rather-long-path/to-see-how-it-wraps'),
      events: ['submission.created', 'submission.completed'],
    })
    assert.equal(hooks.statusCode, 201, hooks.body)
    await work()
    const { context, page } = await openConsole(browser, base, admin)
    for (const [name, path] of [
      ['templates', '/templates'],
      ['submissions', '/submissions'],
      ['submission-detail', `/submissions/${submission.id}`],
      ['api-keys', '/developers/keys'],
      ['webhooks', '/developers/webhooks'],
      ['webhook-detail', `/developers/webhooks/${hooks.json().id}`],
      ['request-logs', '/developers/logs'],
      ['usage', '/usage'],
      ['members', '/members'],
    ] as const) {
      await go(page, path)
      await check(page, `page-${name}`)
    }

    // On a phone the navigation waits behind "Menu", which opens it and folds again once a link is followed.
    await page.setViewportSize({ width: 375, height: 812 })
    const nav = page.getByRole('navigation', { name: 'Console' })
    const menu = page.getByRole('button', { name: 'Menu' })
    assert.equal(await nav.isVisible(), false)
    await menu.click()
    assert.equal(await menu.getAttribute('aria-expanded'), 'true')
    await axe(page, 'menu-open')
    await page.screenshot({ path: `${SHOTS}/menu-open-375.png` })
    await nav.getByRole('link', { name: 'Submissions' }).click()
    await page.waitForURL(`${base}/console/submissions`)
    await nav.waitFor({ state: 'hidden' })
    assert.equal(await menu.getAttribute('aria-expanded'), 'false')
    await context.close()
    const out = await openConsole(browser, base)
    await out.page.goto(`${base}/console/sign-in`)
    await out.page.getByRole('heading', { name: 'Sign in to Paraph' }).waitFor()
    await check(out.page, 'page-sign-in')
    await out.context.close()
  })
})
