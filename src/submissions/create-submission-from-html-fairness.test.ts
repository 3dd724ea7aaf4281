// Issue #20: one API key could stop HTML rendering for every account. Ten slow from_html requests
// (2 000 box-shadows, ~16 s each alone on this machine) took both Chromium slots and the whole
// queue, and every other account's render failed at once with 500 "renderer is busy". Now one
// account holds at most two of three slots and four waiting places (beyond: 429, issue #33), and
// the tag finders serve the account with the fewest documents in them first: another account's
// small render, sent once the flood holds its slots (most of it still waiting for its tags),
// succeeds within 2 s. Real Chromium, real app.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { waitFor } from '../render/renderer-test-kit.ts'

const SHADOWED =
  '<div style="width:80px;height:20px;margin:2px;display:inline-block;border-radius:12px;box-shadow:0 0 60px 40px rgba(0,0,0,.5),inset 0 0 30px 20px rgba(255,0,0,.5)">x</div>'
const SLOW = `<p>{{Signature;role=signer}}</p>${SHADOWED.repeat(2000)}`
const SMALL = '<p>Order form</p><p>{{Signature;role=signer}}</p>'

describe('POST /v1/submissions/from_html: Chromium shared fairly between accounts (issue #20)', () => {
  let t: TestApp
  let inFlight = 0
  before(async () => {
    t = await startTestApp({ renderer: { onRenderStart: (n) => (inFlight = n) } })
  })
  after(() => t.close())

  const fromHtml = (key: string, html: string) =>
    post(t, key, '/v1/submissions/from_html', {
      name: 'Order',
      html,
      submitters: [{ role: 'signer', email: 'signer@example.eu' }],
      send_email: false,
    })

  it("another account's small render succeeds at once (target 2 s) while ten slow ones of one account flood the renderer", async (context) => {
    const a = (await t.account('Flooder')).testKey
    const b = (await t.account('Neighbour')).testKey
    // A warm server, as in production: the first document of a process starts Chromium, the tag
    // finder and the PDF inspector children (each up to a second here, through tsx, under load).
    assert.equal((await fromHtml(b, SMALL)).statusCode, 201)
    let answered = 0
    const flood = Array.from({ length: 10 }, () =>
      fromHtml(a, SLOW).finally(() => {
        answered++
      }),
    )
    // Generous: the flood's tags are found first, on a machine shared with other test runs.
    await waitFor(() => inFlight >= 2, 60_000, "the flood's renders to hold their slots")
    const started = performance.now()
    const small = await fromHtml(b, SMALL)
    const ms = performance.now() - started
    assert.equal(small.statusCode, 201, small.body)
    context.diagnostic(`the small render of another account: ${Math.round(ms)} ms`)
    // The target is 2 s (measured 0.7–1.8 s here); the test's bound is looser so a loaded
    // CI machine cannot fail it, yet far below what waiting behind the flood costs (one slow render
    // alone takes ~16 s; before the fix the small render failed after 20 s).
    assert.ok(ms < 8000, `the small render took ${Math.round(ms)} ms`)

    // The flood: four of ten refused at once once past their tags (its own queue is full) with a
    // 429 naming the account's concurrent-render limit (issue #33: a limit it reached itself, not
    // a 500); the rest stopped by closing the renderer, not waited for (the renderer's own 500).
    await waitFor(() => answered >= 4, 60_000, 'four of the flood to be refused')
    await t.deps.renderer.close()
    const answers = await Promise.all(flood)
    const limited = answers.filter((r) => r.statusCode === 429)
    assert.equal(limited.length, 4)
    for (const r of limited) {
      assert.equal(errorOf(r).code, 'rate_limit_exceeded')
      assert.match(
        errorOf(r).message,
        /^Too many concurrent HTML renders for this account \(2 running, 4 waiting\)/,
      )
      assert.equal(r.headers['retry-after'], '5')
    }
    const others = answers.filter((r) => r.statusCode !== 201 && r.statusCode !== 429)
    assert.ok(
      others.every((r) => r.statusCode === 500 && errorOf(r).code === 'html_render_failed'),
      String(others.map((r) => [r.statusCode, errorOf(r).code])),
    )
  })
})
