// "Any one of" in the console (docs/api.md#signer-groups), in a real browser against the real
// server and a real SMTP server: a role of the Send page takes a second address, a repeated one is
// refused on its own input, the submission is sent with a signer group whose members each get
// their own mail; the submission's page lists the members with what became of them, lets the
// sender replace them, and shows the member who signed. axe-core and screenshots at 1280 and 375 px.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser } from '../../test/browser.ts'
import { check, openConsole, SHOTS } from '../../test/console/console-browser-kit.ts'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { createTemplateFor } from '../../test/documents.ts'
import { type MailTestApp, startMailApp } from '../../test/mail.ts'
import { SIGNATURE, signer } from '../../test/signing.ts'

const ANN = 'ann@example.eu'
const BOB = 'bob@example.eu'
const CAROL = 'carol@example.eu'

describe('a signer group from the console, in a browser', () => {
  let m: MailTestApp
  let base: string
  let browser: Browser
  let admin: ConsoleClient

  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    m = await startMailApp({ PUBLIC_URL: base, SIGNING_URL: base, RATE_LIMIT_TEST: '100000' })
    const accountId = (await m.t.request(m.key, { method: 'GET', url: '/v1/health' })).json().account_id
    await createTemplateFor(m.t, m.key, { name: 'Lease' })
    admin = await signedInMember(m.t, accountId, { email: 'ada@example.eu' })
    await m.t.app.listen({ port, host: '127.0.0.1' })
    browser = await launchBrowser()
    await mkdir(SHOTS, { recursive: true })
  })
  after(async () => {
    await browser?.close()
    await m?.close()
  })

  async function consolePage(path: string): Promise<Page> {
    const { page } = await openConsole(browser, base, admin, 'en-GB')
    await page.goto(`${base}/console${path}`)
    return page
  }

  it('sends a role to any one of two people, lists them, replaces one, and shows who signed', async () => {
    const page = await consolePage('/templates')
    await page.getByRole('link', { name: 'Send “Lease”' }).click()
    await page.getByRole('heading', { name: 'Send “Lease”' }).waitFor()
    await page.getByLabel('E-mail address').nth(0).fill(ANN)
    await page.getByLabel('Name (optional)').nth(0).fill('The Martins')
    await page.getByRole('button', { name: 'Add another person who may sign — first' }).click()
    const other = page.getByLabel('Or this person’s e-mail')
    assert.equal(
      await page.evaluate('document.activeElement?.id'),
      'signer-0-other-0',
      'the new input takes the focus',
    )
    await page.getByText('Any one of these people signs for first').waitFor()
    await other.fill('ANN@example.eu')
    await page.getByLabel('E-mail address').nth(1).fill('second@example.eu')
    await page.getByRole('button', { name: 'Send for signature' }).click()
    // The same person twice is refused on the second input.
    const error = page.locator('#signer-0-other-0-error')
    await error.waitFor()
    assert.match(await error.innerText(), /^submitters\[0\]\.members\[1\]\.email: is the address of/)
    assert.equal(await other.getAttribute('aria-invalid'), 'true')
    await other.fill(BOB)
    await check(page, 'send-group', [1280, 375])
    await page.getByRole('button', { name: 'Send for signature' }).click()
    await page.waitForURL(/\/console\/submissions\/sub_[0-9A-Za-z]{24}$/)
    const submissionId = page.url().split('/').pop()!

    const submission = (
      await m.t.request(m.key, { method: 'GET', url: `/v1/submissions/${submissionId}` })
    ).json()
    const group = submission.submitters[0]
    assert.deepEqual(
      group.members.map((x: { email: string; name: string }) => [x.email, x.name]),
      [
        [ANN, 'The Martins'],
        [BOB, 'The Martins'],
      ],
    )
    await m.work()
    await m.smtp.waitFor((mail) => mail.envelope.to.includes(ANN))
    await m.smtp.waitFor((mail) => mail.envelope.to.includes(BOB))

    // The submission's page lists the members, each with a link to copy while they may sign.
    await page.getByText('Any one of:').waitFor()
    await page.getByRole('button', { name: `Copy link of ${BOB}` }).waitFor()
    await check(page, 'submission-group', [1280, 375])

    // Bob is replaced by Carol: one address per line.
    await page.getByRole('button', { name: /^Change signer ann@example\.eu, bob@example\.eu/ }).click()
    await page.getByLabel('People who may sign').fill(`${ANN}\n${CAROL}`)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('button', { name: `Copy link of ${CAROL}` }).waitFor()
    assert.equal(await page.getByText(BOB).count(), 0)
    await m.work()
    const [toCarol] = await m.smtp.waitFor((mail) => mail.envelope.to.includes(CAROL))
    assert.ok(toCarol, 'Carol is mailed her own link')

    // Carol signs: the page shows her as the signer, the others as superseded.
    const carol = (await m.t.request(m.key, { method: 'GET', url: `/v1/submitters/${group.id}` }))
      .json()
      .members.find((x: { email: string }) => x.email === CAROL)
    const signed = await signer(m.t, carol, 'sign', { values: { 'First signature': SIGNATURE } })
    assert.equal(signed.statusCode, 200, signed.body)
    await page.reload()
    await page.getByText('another person signed').waitFor()
    const cell = await page.locator('.group-members').innerText()
    assert.match(cell, /carol@example\.eu \(signed\)/)
    assert.match(cell, /ann@example\.eu \(another person signed\)/)
    await check(page, 'submission-group-signed', [1280, 375])
    await page.context().close()
  })
})
