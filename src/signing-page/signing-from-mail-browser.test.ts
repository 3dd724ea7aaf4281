// The whole path a person takes, in a real browser: the signing request arrives at a real SMTP
// server, the first signer follows its link, draws a signature with the mouse, fills every field
// and signs; the second signer's request arrives only then, and they sign; the completion notice
// arrives, and its link opens the completed screen, whose button downloads the sealed PDF.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  DESKTOP,
  drawStroke,
  fillPlainFields,
  freePort,
  launchBrowser,
  PHONE,
  typeSignature,
} from '../../test/browser.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { createSubmission, everyTypeBody, submissionRow } from '../../test/signing.ts'

/** The signing link in a mail's text part. */
function linkIn(text: string): string {
  const link = /https?:\/\/\S+\/s\/[A-Za-z0-9]+/.exec(text)?.[0]
  assert.ok(link, `no signing link in: ${text}`)
  return link
}

describe('from the e-mail to the sealed PDF, in a browser', () => {
  let m: MailTestApp
  let browser: Browser
  before(async () => {
    // The app listens where its links point, so the links in the mails work as they are.
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    m = await startMailApp({ PUBLIC_URL: base, SIGNING_URL: base })
    await m.t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
  })
  after(async () => {
    await browser.close()
    await m.close()
  })

  async function visit(url: string, viewport = DESKTOP): Promise<Page> {
    const page = await (await browser.newContext({ viewport })).newPage()
    page.on('pageerror', (error) => assert.fail(`script error on the page: ${error.message}`))
    await page.goto(url)
    return page
  }

  it('two signers in order, each from their own mail, then the completion notice', async () => {
    const created = await createSubmission(m.t, m.key, await everyTypeBody(['first', 'second']))
    await m.work()
    const [firstMail] = await m.smtp.waitFor((mail) => mail.envelope.to.includes('first@example.eu'))
    assert.equal(m.smtp.to('second@example.eu').length, 0, 'the second signer waits for the first')

    const first = await visit(linkIn(firstMail!.text))
    await first.getByRole('heading', { name: 'Contract' }).waitFor()
    await first.locator('[data-field="Signature"]').click()
    await drawStroke(first, 'dialog canvas')
    await first.getByRole('button', { name: 'Use this signature' }).click()
    await typeSignature(first, 'Initials')
    await fillPlainFields(first, { date: '2026-11-23', name: 'Ann First', plan: 'pro', country: 'FR' })
    await first.getByRole('button', { name: 'Sign', exact: true }).click()
    await first.getByRole('heading', { name: 'You have signed' }).waitFor()
    await first.context().close()

    await m.work()
    const [secondMail] = await m.smtp.waitFor((mail) => mail.envelope.to.includes('second@example.eu'))
    const second = await visit(linkIn(secondMail!.text), PHONE)
    await second.getByRole('heading', { name: 'Contract' }).waitFor()
    await second.locator('[data-field="second signature"]').click()
    await drawStroke(second, 'dialog canvas')
    await second.getByRole('button', { name: 'Use this signature' }).click()
    await second.getByRole('button', { name: 'Sign', exact: true }).click()
    await second.getByRole('heading', { name: 'You have signed' }).waitFor()
    await second.context().close()

    await m.work()
    assert.equal((await submissionRow(m.t, created.id)).status, 'completed')
    const notices = await m.smtp.waitFor((mail) => mail.envelope.to.includes('first@example.eu'), 2)
    const done = await visit(linkIn(notices[1]!.text))
    await done.getByRole('heading', { name: 'Signed by everyone' }).waitFor()
    const download = done.waitForEvent('download')
    await done.getByRole('link', { name: 'Download the signed PDF' }).click()
    const path = await (await download).path()
    assert.equal((await readFile(path)).subarray(0, 5).toString('latin1'), '%PDF-')
    await done.context().close()
  })
})
