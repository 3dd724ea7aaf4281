// Issue #20 item 1 (the page side) and the embed messages, in a real browser. A second signer sees
// the values the first entered drawn on the document, read-only and marked as theirs; a signer may
// download the document as it stands before signing and their own copy after. These two read what
// `…/form` gives since issue #20's server change (other roles' values, `current_pdf_url`): they fail
// on a server without it. The embed page posts its messages to the embedding origin the page's
// config names (the server sets `embed_origin`), and to no one when it names none:
// that test sets the config in the HTML on its way to the browser, so it checks the page alone.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page, Response } from 'playwright-core'
import {
  DESKTOP,
  documentShare,
  fillPlainFields,
  freePort,
  launchBrowser,
  openSignerPage,
  PHONE,
  screenshot,
  typeSignature,
} from '../../test/browser.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { type Created, createSubmission, everyTypeBody, FIRST_VALUES, signer } from '../../test/signing.ts'

const pathOf = (url: string) => new URL(url).pathname

/** Rewrites the signing page's JSON config on its way to the browser: `embed_origin` as given. */
async function withEmbedOrigin(page: Page, origin: string | null): Promise<void> {
  await page.route(/\/embed\/[^/?]+(\?.*)?$/, async (route) => {
    const response = await route.fetch()
    const body = (await response.text()).replace(
      /(<script type="application\/json" id="paraph-config">)(.*?)(<\/script>)/,
      (_, open: string, json: string, close: string) =>
        `${open}${JSON.stringify({ ...JSON.parse(json), embed_origin: origin }).replace(/</g, '\\u003c')}${close}`,
    )
    await route.fulfill({ response, body })
  })
}

describe('what others entered, the document so far, and embed messages (issue #20)', () => {
  let t: TestApp
  let key: string
  let base: string
  let browser: Browser
  let host: Server
  let hostOrigin: string
  before(async () => {
    // The app listens where its URLs point, so file and image URLs load in the browser as they are.
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    t = await startTestApp({ env: { PUBLIC_URL: base, SIGNING_URL: base } })
    await t.app.listen({ port, host: '127.0.0.1' })
    key = (await t.account()).testKey
    browser = await launchBrowser()
    // A client's page on another origin (localhost, not 127.0.0.1) framing /embed/… at ?src=, 1000 px wide.
    host = createServer((request, response) => {
      const src = new URL(request.url ?? '/', 'http://localhost').searchParams.get('src') ?? ''
      response.setHeader('content-type', 'text/html')
      response.end(
        `<!doctype html><body style="margin:0"><script>window.got=[];addEventListener('message',e=>got.push(e.data))</script><iframe src="${src.replace(/"/g, '')}" style="width:1000px;height:700px;border:0"></iframe>`,
      )
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`
  })
  after(async () => {
    await browser.close()
    await new Promise((resolve) => host.close(resolve))
    await t.close()
  })

  it('the second signer sees the first signer’s values on the document, read-only and marked as theirs', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const signed = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    const url = `${base}${pathOf(created.submitters[1]!.signing_url)}`
    for (const viewport of [PHONE, DESKTOP]) {
      let formRead: Promise<Response> | undefined
      const page = await openSignerPage(browser, url, {
        viewport,
        watch: (p) => {
          formRead = p.waitForResponse((r) => r.url().endsWith('/form'))
        },
      })
      await page.getByRole('heading', { name: 'Contract' }).waitFor()
      // The image URLs are the ones of the form the page read (each read signs them anew).
      const form = await (await formRead!).json()
      const other = (name: string) => page.locator(`.other[data-other="${name}"]`)
      await other('Name').waitFor()
      assert.equal(await other('Name').locator('.by').textContent(), 'Filled by first')
      assert.equal(await other('Name').locator('.value').textContent(), 'Łukasz Żółć')
      assert.equal(await other('Date').locator('.value').textContent(), '23 Nov 2026')
      assert.equal(await other('Amount').locator('.value').textContent(), '1250.5')
      assert.equal(await other('Plan').locator('.value').textContent(), 'pro')
      assert.equal(await other('Country').locator('.value').textContent(), 'DE')
      assert.match(String(await other('Agree').textContent()), /✓/)
      for (const [name, alt] of [
        ['Signature', 'Signature of first'],
        ['Initials', 'Initials of first'],
      ]) {
        const image = other(name!).first().getByRole('img', { name: alt })
        const src = form.fields.find((f: { name: string }) => f.name === name).value
        assert.equal(await image.getAttribute('src'), src)
        await image.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode())
      }
      // Read-only: nothing of the first signer's is a control; the second signer's own field is.
      assert.equal(await page.locator('.other button, .other input').count(), 0)
      assert.equal(await page.locator('[data-field]').count(), 1)
      await page.locator('[data-field="second signature"]').scrollIntoViewIfNeeded()
      await screenshot(page, `others-${viewport.width}`)
      await page.context().close()
    }
  })

  it('offers the document as it stands before signing, and the signer’s own copy after', async () => {
    const created: Created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const page = await openSignerPage(browser, `${base}${pathOf(created.submitters[0]!.signing_url)}`)
    await page.getByRole('heading', { name: 'Contract' }).waitFor()
    const before = page.getByRole('link', { name: 'Download the document' })
    const isPdf = async (href: string | null) => {
      const res = await fetch(String(href))
      assert.equal(res.status, 200)
      assert.equal(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString('latin1'),
        '%PDF-',
      )
    }
    await isPdf(await before.getAttribute('href'))
    const signed = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    await page.reload()
    await page.getByRole('heading', { name: 'You have signed' }).waitFor()
    await isPdf(await page.getByRole('link', { name: 'Download your copy' }).getAttribute('href'))
    await screenshot(page, 'signed-copy-1280')
    await page.context().close()
  })

  /** Opens the embed page in the host's iframe with `origin` as embed_origin, signs, returns what the host heard. */
  async function embedAndSign(
    origin: string | null,
    shot?: string,
  ): Promise<{ heard: Array<Record<string, string>>; created: Created; share?: number }> {
    const created: Created = await createSubmission(t, key, await everyTypeBody(['first']))
    const embed = `${base}${pathOf(created.submitters[0]!.embed_src)}`
    const page = await (await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' })).newPage()
    await withEmbedOrigin(page, origin)
    const opened = page.waitForResponse((r) => r.url().endsWith('/open') && r.status() === 200)
    await page.goto(`${hostOrigin}/?src=${encodeURIComponent(embed)}`)
    const frame = page.frameLocator('iframe')
    await frame.getByRole('heading', { name: 'Contract' }).waitFor()
    await opened
    let share: number | undefined
    if (shot) {
      // A 1000 px iframe gets the phone's compact panel: filling a field leaves the document most of it.
      await frame.locator('[data-field="Name"]').click()
      share = (await documentShare(page.frames().find((f) => f.url().includes('/embed/'))!)).pages
      assert.ok(share >= 0.6, `the document shows on ${(share * 100).toFixed(1)} % of the iframe`)
      await screenshot(page, shot)
    }
    await fillPlainFields(frame, { date: '2026-11-23', name: 'Embedded', plan: 'basic', country: 'FR' })
    await typeSignature(frame, 'Signature', 'E')
    await typeSignature(frame, 'Initials', 'E')
    await frame.getByRole('button', { name: 'Sign', exact: true }).click()
    await frame.getByRole('heading', { name: 'You have signed' }).waitFor()
    // Messages between two windows arrive in order: once the host hears this one, it heard the page's.
    await page
      .frames()
      .find((f) => f.url().includes('/embed/'))!
      .evaluate("parent.postMessage({ type: 'end' }, '*')")
    await page.waitForFunction("window.got.some((m) => m.type === 'end')")
    const got = (await page.evaluate('window.got')) as Array<Record<string, string>>
    await page.context().close()
    return { heard: got.filter((m) => m.type !== 'end'), created, ...(share === undefined ? {} : { share }) }
  }

  it('embed: messages go to the embedding origin named in the config, and nowhere when it names none', async (ctx) => {
    const { heard, created, share } = await embedAndSign(hostOrigin, 'embed-1000')
    ctx.diagnostic(
      `1000 × 700 iframe, filling a field: pages ${((share ?? 0) * 100).toFixed(1)} % of the iframe`,
    )
    const ids = { submitter_id: created.submitters[0]!.id, submission_id: created.id }
    assert.deepEqual(heard, [
      { type: 'paraph:opened', ...ids },
      { type: 'paraph:signed', ...ids },
    ])
    assert.deepEqual(
      (await embedAndSign('https://elsewhere.example')).heard,
      [],
      'another origin hears nothing',
    )
    assert.deepEqual((await embedAndSign(null)).heard, [], 'no origin: nothing is posted')
  })
})
