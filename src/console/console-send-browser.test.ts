// Issue #23 Deliver 4 end to end, in a real browser against the real server and a real SMTP server:
// a two-role template is sent from the console's Send page (roles reordered with the keyboard and
// back, a message with a variable inserted, an unknown variable refused on its field, a double click
// on Send making one submission), the first signer's request is resent from the submission's page
// (its toast, then the 5-minute wait), both sign from their mails, the page's timeline reaches
// "Completed" and its download link gives the sealed PDF. Also: the French texts of the Send page,
// axe-core on it, and screenshots at 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir, readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { drawStroke, freePort, launchBrowser } from '../../test/browser.ts'
import { check, openConsole, SHOTS } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { createTemplateFor } from '../../test/documents.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'

/** The signing link in a mail's text part. */
function linkIn(text: string): string {
  const link = /https?:\/\/\S+\/s\/[A-Za-z0-9]+/.exec(text)?.[0]
  assert.ok(link, `no signing link in: ${text}`)
  return link
}

describe('sending a template from the console, in a browser', () => {
  let m: MailTestApp
  let base: string
  let browser: Browser
  let admin: ConsoleClient
  let templateId: string

  before(async () => {
    // The app listens where its links point, so the links in the mails work as they are.
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    m = await startMailApp({ PUBLIC_URL: base, SIGNING_URL: base, RATE_LIMIT_TEST: '100000' })
    const accountId = (await m.t.request(m.key, { method: 'GET', url: '/v1/health' })).json().account_id
    templateId = await createTemplateFor(m.t, m.key, { name: 'Lease' })
    admin = await signedInMember(m.t, accountId, { email: 'ada@example.eu' })
    await m.t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await m?.close()
  })

  async function consolePage(path: string, options: BrowserContextOptions = {}): Promise<Page> {
    const { page } = await openConsole(browser, base, admin, 'en-GB', { acceptDownloads: true, ...options })
    await page.goto(`${base}/console${path}`)
    return page
  }

  async function signerPage(url: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    page.on('pageerror', (error) => assert.fail(`script error on the signing page: ${error.message}`))
    await page.goto(url)
    return page
  }

  /** The roles in the order the Send page shows them. */
  const shownOrder = (page: Page) => page.locator('.send-signer legend').allTextContents()

  async function sign(url: string, field: string): Promise<void> {
    const page = await signerPage(url)
    await page.locator(`[data-field="${field}"]`).click()
    await drawStroke(page, 'dialog canvas')
    await page.getByRole('button', { name: 'Use this signature' }).click()
    await page.getByRole('button', { name: 'Sign', exact: true }).click()
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    await page.context().close()
  }

  it('sends once on a double click, resends, and follows the submission to its sealed PDF', async () => {
    const page = await consolePage('/templates')
    await page.getByRole('link', { name: 'Send “Lease”' }).click()
    await page.getByRole('heading', { name: 'Send “Lease”' }).waitFor()
    assert.deepEqual(await shownOrder(page), ['1first', '2second'])
    await check(page, 'send', [1280, 375])

    // Reordered with the keyboard: the focus stays on the moved block's button.
    await page.getByRole('button', { name: 'Move up — second' }).focus()
    await page.keyboard.press('Enter')
    assert.deepEqual(await shownOrder(page), ['1second', '2first'])
    // The focus follows the block once the page has drawn it there (at the top, onto its Move down).
    await page.locator('#move-down-0:focus').waitFor({ timeout: 5000 })
    await page.keyboard.press('Enter')
    assert.deepEqual(await shownOrder(page), ['1first', '2second'], 'Enter again moves it back down')

    await page.getByLabel('E-mail address').nth(0).fill('first@example.eu')
    await page.getByLabel('Name (optional)').nth(0).fill('Fiona First')
    await page.getByLabel('E-mail address').nth(1).fill('second@example.eu')
    await page.getByLabel('Name (optional)').nth(1).fill('Sam Second')
    await page.getByLabel('Subject').fill('Please sign {{document.name}}')
    // A typo in a variable is refused by the API and shown under the message box.
    await page.getByLabel('Message', { exact: true }).fill('Hello {{submiter.name}}')
    await page.getByLabel('One after the other, in this order').check()
    await page.getByRole('button', { name: 'Send for signature' }).click()
    const bodyError = page.locator('#send-body-error')
    await bodyError.waitFor()
    assert.match(await bodyError.innerText(), /^message\.body: .*\{\{submiter\.name\}\}/)
    assert.equal(await page.getByLabel('Message', { exact: true }).getAttribute('aria-invalid'), 'true')

    // Fixed with the variable's button, inserted at the cursor.
    await page.getByLabel('Message', { exact: true }).fill('Hello ')
    await page.getByRole('button', { name: /^Insert \{\{submitter\.name\}\}/ }).click()
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), 'Hello {{submitter.name}}')
    assert.equal(await bodyError.count(), 0, 'the error goes with the change')

    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/submissions')) {
        posts.push(request.headers()['idempotency-key'] ?? '')
      }
    })
    await page.getByRole('button', { name: 'Send for signature' }).dblclick()
    await page.waitForURL(/\/console\/submissions\/sub_[0-9A-Za-z]{24}$/)
    await page.getByText('“Lease” sent for signature.').waitFor()
    const submissionId = page.url().split('/').pop()!
    // Named after its template, its id beside.
    await page.getByRole('heading', { name: 'Lease' }).waitFor()
    await page.getByText(submissionId, { exact: true }).waitFor()
    const list = await m.t.request(m.key, { method: 'GET', url: '/v1/submissions' })
    assert.deepEqual(
      list.json().data.map((s: { id: string }) => s.id),
      [submissionId],
      'one submission, whatever the double click sent',
    )
    assert.ok(posts.length >= 1 && new Set(posts).size === 1, `one Idempotency-Key: ${posts.join()}`)
    const created = list.json().data[0]
    assert.equal(created.template_id, templateId)
    assert.equal(created.signing_order, 'preserved')
    assert.deepEqual(created.message, {
      subject: 'Please sign {{document.name}}',
      body: 'Hello {{submitter.name}}',
    })

    await m.work()
    const [firstMail] = await m.smtp.waitFor((mail) => mail.envelope.to.includes('first@example.eu'))
    assert.equal(firstMail!.subject, 'Please sign Lease')
    assert.match(firstMail!.text, /Hello Fiona First/)
    assert.equal(m.smtp.to('second@example.eu').length, 0, 'the second signer waits for the first')

    // Resend: only the first signer's request went out; the second resend waits 5 minutes.
    assert.equal(await page.getByRole('button', { name: /^Resend request to/ }).count(), 1)
    const resend = page.getByRole('button', { name: 'Resend request to first@example.eu' })
    await resend.click()
    await page.getByText('Signing request sent again to Fiona First (first@example.eu).').waitFor()
    await resend.click()
    await page.getByText('You can resend again in 5 minutes.').waitFor()
    await check(page, 'submission-resend', [1280, 375])
    await m.work()
    const firstMails = await m.smtp.waitFor((mail) => mail.envelope.to.includes('first@example.eu'), 2)
    assert.equal(linkIn(firstMails[1]!.text), linkIn(firstMail!.text), 'the same link, sent again')

    await sign(linkIn(firstMail!.text), 'First signature')
    await m.work()
    const [secondMail] = await m.smtp.waitFor((mail) => mail.envelope.to.includes('second@example.eu'))
    await sign(linkIn(secondMail!.text), 'Second signature')
    await m.work()

    // The page shows what happened since it was opened once reloaded; the bound is generous, as
    // this machine's browser tests share two cores.
    await page.reload()
    await page.locator('.timeline-type', { hasText: 'Completed' }).waitFor({ timeout: 30_000 })
    assert.equal(await page.getByRole('button', { name: /^Resend/ }).count(), 0, 'nothing left to resend')
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Signed PDF' }).click()
    const pdf = await readFile(await (await download).path())
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-')
    assert.ok(pdf.includes('/ByteRange'), 'the PDF carries a signature')
    await page.context().close()
  })

  it('refuses an expiry in the past on its field, before anything is sent', async () => {
    const page = await consolePage(`/templates/${templateId}/send`)
    await page.getByRole('heading', { name: 'Send “Lease”' }).waitFor()
    await page.getByLabel('E-mail address').nth(0).fill('a@example.eu')
    await page.getByLabel('E-mail address').nth(1).fill('b@example.eu')
    await page.getByLabel('Expires on (optional)').fill('2020-01-01T09:00')
    let posted = false
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/submissions')) posted = true
    })
    await page.getByRole('button', { name: 'Send for signature' }).click()
    await page.locator('#send-expires-error', { hasText: 'Choose a date and time in the future.' }).waitFor()
    assert.equal(await page.getByLabel('Expires on (optional)').getAttribute('aria-invalid'), 'true')
    assert.equal(
      await page.evaluate('document.activeElement?.id'),
      'send-expires',
      'the focus is on the field',
    )
    assert.equal(posted, false)
    await page.context().close()
  })

  it('shows the Send page in French', async () => {
    const page = await consolePage(`/templates/${templateId}/send`, { locale: 'fr-FR' })
    await page.getByRole('heading', { name: 'Envoyer « Lease »' }).waitFor()
    await page.getByRole('group', { name: 'Ordre de signature' }).waitFor()
    await page.getByLabel('L’un après l’autre, dans cet ordre').waitFor()
    await page.getByRole('button', { name: 'Envoyer pour signature' }).waitFor()
    await page.getByRole('button', { name: 'Monter — second' }).waitFor()
    await page.getByText('le lien de signature du signataire').waitFor()
    await check(page, 'send-fr', [1280, 375])
    await page.context().close()
  })
})
