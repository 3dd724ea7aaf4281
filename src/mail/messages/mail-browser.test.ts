// Every mail, drawn by a real browser (Debian's Chromium) as a phone and a desktop mail client
// would show its HTML part, in English and in French: nothing wider than a phone,
// the card at 600 px on a desktop, the button a comfortable tap target, who asks under the
// heading. Screenshots are kept in SHOTS_DIR (test/browser.ts) to be looked at.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { DESKTOP, launchBrowser, PHONE, SHOTS_DIR } from '../../../test/browser.ts'
import { everyMail } from '../../../test/fixtures/mails.ts'
import { MAIL_LANGUAGES, mailTexts } from './texts.ts'

interface Drawn {
  /** The page's width as laid out: more than the viewport means a sideways scroll. */
  scrollWidth: number
  cardWidth: number
  button: { width: number; height: number } | null
  byline: string | null
}

// A string: the test code is compiled without the DOM library, the page evaluates it.
const MEASURE = `(() => {
  const card = document.querySelector('table[style*="max-width:600px"]')
  const link = document.querySelector('td[bgcolor] > a')
  const heading = card.querySelector('td')
  const next = heading.parentElement.nextElementSibling?.querySelector('td')
  return {
    scrollWidth: document.documentElement.scrollWidth,
    cardWidth: card.getBoundingClientRect().width,
    button: link ? { width: link.getBoundingClientRect().width, height: link.getBoundingClientRect().height } : null,
    byline: next && next.style.fontSize === '14px' ? next.textContent : null,
  }
})()`

describe('every mail in a browser (HTML part)', () => {
  let browser: Browser
  let page: Page
  before(async () => {
    browser = await launchBrowser()
    // Mail clients show no script; the HTML part needs none.
    page = await (await browser.newContext({ javaScriptEnabled: false })).newPage()
    await mkdir(SHOTS_DIR, { recursive: true })
  })
  after(() => browser.close())

  async function draw(
    html: string,
    viewport: { width: number; height: number },
    shot: string,
  ): Promise<Drawn> {
    await page.setViewportSize(viewport)
    await page.setContent(html)
    await page.screenshot({ path: join(SHOTS_DIR, `${shot}.png`), fullPage: true })
    return (await page.evaluate(MEASURE)) as Drawn
  }

  for (const language of MAIL_LANGUAGES) {
    it(`${language}: fits a phone, 600 px on a desktop, a button of 44 px or more, who asks under the heading`, async () => {
      for (const [kind, mail] of Object.entries(everyMail(mailTexts(language)))) {
        const phone = await draw(mail.html, PHONE, `mail-${kind}-${language}-phone`)
        assert.ok(phone.scrollWidth <= PHONE.width, `${kind}: ${phone.scrollWidth} px wide on a phone`)
        assert.ok(phone.cardWidth <= PHONE.width - 20, `${kind}: card ${phone.cardWidth} px`)
        const desktop = await draw(mail.html, DESKTOP, `mail-${kind}-${language}-desktop`)
        assert.equal(desktop.cardWidth, 600, kind)
        const hasButton = [
          'signing_request',
          'signing_request_reminder',
          'completed',
          'console_sign_in',
        ].includes(kind)
        assert.equal(phone.button !== null, hasButton, `${kind}: a button only where there is a link`)
        if (phone.button)
          assert.ok(
            phone.button.height >= 44 && phone.button.width >= 120,
            `${kind}: ${JSON.stringify(phone.button)}`,
          )
        if (kind === 'signing_request' || kind === 'signing_request_reminder') {
          assert.equal(
            phone.byline,
            mailTexts(language).signingRequest.requestedBy('Acme Ltd', 'sales@acme.example'),
          )
        }
      }
    })
  }
})
